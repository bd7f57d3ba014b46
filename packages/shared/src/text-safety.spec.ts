import { findUnsafeText, isPlainText, isSingleLineText, MAX_INPUT_DEPTH, safeFileName, unsafeTextReason } from './text-safety';

describe('text safety', () => {
  it.each([
    ['plain ascii', 'hello', null],
    ['Chinese', '阳光一班', null],
    ['tab and line breaks', 'a\tb\r\nc', null],
    ['emoji (a surrogate pair)', '好😀', null],
    ['NUL', 'ab\u0000c', 'control'],
    ['other C0 (bell)', '\u0007', 'control'],
    ['vertical tab', 'a\u000bb', 'control'],
    ['DEL', 'a\u007f', 'control'],
    ['C1', '\u0085', 'control'],
    ['lone high surrogate', 'a\ud800', 'surrogate'],
    ['lone high surrogate before a letter', '\ud800a', 'surrogate'],
    ['lone low surrogate', '\udc00', 'surrogate'],
    ['two lone lows', 'x\udc00\udc00', 'surrogate'],
    ['reversed pair', '\ude00\ud83d', 'surrogate'],
  ])('%s → %s', (_, s, reason) => {
    expect(unsafeTextReason(s)).toBe(reason);
  });

  it.each([
    ['a clean body', { a: 'x', b: [1, 'y', { c: true, d: null }] }, null],
    ['a string at depth', { nav: [{ title: 'ok' }, { title: 'bad\u0000' }] }, { path: 'body.nav.1.title', reason: 'control' }],
    ['the first problem in document order', { a: ['\ud800'], b: '\u0000' }, { path: 'body.a.0', reason: 'surrogate' }],
    ['a key', { ['k\u0000']: 1 }, { path: 'body[key]', reason: 'control' }],
    ['a top-level string', '\u0001', { path: 'body', reason: 'control' }],
    ['numbers and booleans pass', [1, 2.5, false, null], null],
  ])('findUnsafeText: %s', (_, value, found) => {
    expect(findUnsafeText(value, 'body')).toEqual(found);
  });

  it('refuses input nested deeper than a form can be, without recursion', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(findUnsafeText(deep, 'body')).toMatchObject({ reason: 'depth' });
    let ok: unknown = 'x';
    for (let i = 0; i < MAX_INPUT_DEPTH - 1; i++) ok = { a: ok };
    expect(findUnsafeText(ok, 'body')).toBeNull();
  });

  it.each([
    ['text', true, true],
    ['多行\n备注\t缩进', true, false],
    ['a < b and c > d', true, true],
    ['<img src=x onerror=alert(1)>', false, false],
    ['< script> (not a tag in HTML)', true, true],
    ['</b>', false, false],
    ['<!-- x -->', false, false],
    ['nul\u0000', false, false],
    ['lone\ud800', false, false],
  ])('isPlainText(%j): multi-line %s, single-line %s', (v, multi, single) => {
    expect(isPlainText(v)).toBe(multi);
    expect(isSingleLineText(v)).toBe(single);
  });

  it.each([
    ['report.pdf', 'report.pdf'],
    ['成绩单 2026.xlsx', '成绩单 2026.xlsx'],
    ['<img src=x onerror=alert(1)>.png', 'img src=x onerror=alert(1).png'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\me\\photo.jpg', 'photo.jpg'],
    ['a\u0000b\u0007.txt', 'ab.txt'],
    ['evil\u202etxt.exe', 'eviltxt.exe'],
    ['  spaced   out .doc  ', 'spaced out .doc'],
    ['"quoted" `name`|?*.txt', 'quoted name.txt'],
    ['...', 'file'],
    ['', 'file'],
    ['pic\ud800.png', 'pic.png'],
    ['😀.png', '😀.png'],
  ])('safeFileName(%j) = %j', (raw, safe) => {
    expect(safeFileName(raw)).toBe(safe);
  });

  it('caps a long file name at 255 characters and keeps its extension', () => {
    const name = safeFileName(`${'长'.repeat(400)}.pdf`);
    expect([...name]).toHaveLength(255);
    expect(name.endsWith('.pdf')).toBe(true);
  });
});
