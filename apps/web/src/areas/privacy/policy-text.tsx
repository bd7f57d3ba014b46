import { Fragment, type ReactNode } from 'react';
import './privacy.css';

/**
 * A policy's text as the operator writes it (plain text with a little markdown: `#` headings, `-` / `*` and `1.`
 * lists, `**bold**`, blank lines between paragraphs) turned into elements. Nothing of the text is ever markup: every
 * piece becomes a React text node, so `<script>` or `<img onerror>` in a document shows as the characters it is. No UI
 * library: the phone app and the consoles both show it.
 */
export type PolicyBlock =
  { kind: 'heading'; level: 1 | 2 | 3; text: string } | { kind: 'paragraph'; text: string } | { kind: 'list'; ordered: boolean; items: string[] };

const HEADING = /^(#{1,6})\s+(.*)$/;
const BULLET = /^\s*[-*•]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,3}[.、)）]\s*(.*)$/;

/** The blocks of a document's text, in order. */
export function policyBlocks(body: string): PolicyBlock[] {
  const blocks: PolicyBlock[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;
  const endParagraph = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', text: paragraph.join('\n') });
    paragraph = [];
  };
  const endList = () => {
    if (list) blocks.push({ kind: 'list', ...list });
    list = null;
  };
  for (const raw of body.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trimEnd();
    if (!line.trim()) {
      endParagraph();
      endList();
      continue;
    }
    const h = HEADING.exec(line);
    if (h) {
      endParagraph();
      endList();
      blocks.push({ kind: 'heading', level: Math.min(h[1].length, 3) as 1 | 2 | 3, text: h[2].trim() });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    if (bullet || numbered) {
      endParagraph();
      const ordered = Boolean(numbered);
      if (list && list.ordered !== ordered) endList();
      list ??= { ordered, items: [] };
      list.items.push((bullet ?? numbered)![1].trim());
      continue;
    }
    // a line under a list item without its own marker continues that item
    if (list && /^\s/.test(raw)) {
      list.items[list.items.length - 1] += `\n${line.trim()}`;
      continue;
    }
    endList();
    paragraph.push(line.trim());
  }
  endParagraph();
  endList();
  return blocks;
}

/** `**bold**` inside a line, and its line breaks; everything else as text. */
function inline(text: string): ReactNode {
  const parts = text.split(/(\*\*[^*\n]+\*\*)/g);
  return parts.map((p, i) => {
    const bold = /^\*\*([^*\n]+)\*\*$/.exec(p);
    const lines = (bold ? bold[1] : p).split('\n');
    const content = lines.map((l, j) => (
      <Fragment key={j}>
        {j > 0 && <br />}
        {l}
      </Fragment>
    ));
    return bold ? <strong key={i}>{content}</strong> : <Fragment key={i}>{content}</Fragment>;
  });
}

/**
 * The document's text as elements. `skipTitle`: the text's own first heading is left out when the page shows the
 * document's title already.
 */
export function PolicyText({ body, skipTitle = false, className }: { body: string; skipTitle?: boolean; className?: string }) {
  let blocks = policyBlocks(body);
  if (skipTitle && blocks[0]?.kind === 'heading' && blocks[0].level === 1) blocks = blocks.slice(1);
  return (
    <div className={className ? `policy-text ${className}` : 'policy-text'}>
      {blocks.map((b, i) => {
        if (b.kind === 'heading') {
          const Tag = b.level === 1 ? 'h2' : b.level === 2 ? 'h3' : 'h4';
          return <Tag key={i}>{inline(b.text)}</Tag>;
        }
        if (b.kind === 'paragraph') return <p key={i}>{inline(b.text)}</p>;
        const List = b.ordered ? 'ol' : 'ul';
        return (
          <List key={i}>
            {b.items.map((item, j) => (
              <li key={j}>{inline(item)}</li>
            ))}
          </List>
        );
      })}
    </div>
  );
}
