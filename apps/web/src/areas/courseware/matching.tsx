import { CenterFiles } from './center-files';
import { coursewareStrings } from './strings';

/** /principalCenter_matching: the supporting materials (documents and pictures) of an owned courseware. */
export default function Matching() {
  const s = coursewareStrings.use();
  return <CenterFiles kinds={['pdf', 'image', 'other']} path="/principalCenter_matching" empty={s('no_files')} />;
}
