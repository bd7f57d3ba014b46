import { PhonePage } from '../ui/page';
import { PhoneEmpty } from '../ui/states';

// placeholder: the page is being built
export default function Placeholder() {
  return (
    <PhonePage>
      <PhoneEmpty />
    </PhonePage>
  );
}
