import { useQuery } from '@tanstack/react-query';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { early } from '../../lib/early-data';

/**
 * The guardian's children, without a UI library (the consoles' parent pages and the phone app's both use it; the child
 * a page is about: chosen-child.ts).
 */

/** The guardian's children (parentChildren): the early answer when the shell started one (boot.ts), else asked for. */
export function useParentChildren() {
  return useQuery({ queryKey: queryKey('parentChildren'), queryFn: () => early('parentChildren', () => get('parentChildren')) });
}

/** The child's given name: the name without its surname (one character; two for a compound surname such as 欧阳). */
const COMPOUND = [
  '欧阳',
  '司马',
  '上官',
  '诸葛',
  '东方',
  '皇甫',
  '尉迟',
  '公孙',
  '慕容',
  '长孙',
  '宇文',
  '司徒',
  '令狐',
  '夏侯',
  '轩辕',
  '端木',
  '独孤',
  '南宫',
  '西门',
  '百里',
  '呼延',
  '澹台',
  '公冶',
  '太史',
  '申屠',
  '闻人',
];
export function givenName(name: string): string {
  const n = name.trim();
  // a Latin name: its first word
  if (/^[A-Za-z]/.test(n)) return n.split(/\s+/)[0];
  const chars = Array.from(n);
  if (chars.length <= 1) return n;
  const surname = chars.length > 2 && COMPOUND.includes(chars.slice(0, 2).join('')) ? 2 : 1;
  return chars.slice(surname).join('');
}
