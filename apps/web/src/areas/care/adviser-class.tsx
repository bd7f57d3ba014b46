import { MyClass } from './my-class';

/** /AClassList: the head teacher's own class: its students, adding and removing. */
export default function AdviserClass() {
  return <MyClass mode="manage" title="care.my_class_students" />;
}
