import { BoldOutlined, ClearOutlined, ItalicOutlined, OrderedListOutlined, UnderlineOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { Button, Flex, Tooltip } from 'antd';
import { useEffect, useRef } from 'react';
import { noticesStrings } from './strings';
import './notices.css';

const COMMANDS = [
  { cmd: 'bold', icon: <BoldOutlined />, key: 'ed.bold' },
  { cmd: 'italic', icon: <ItalicOutlined />, key: 'ed.italic' },
  { cmd: 'underline', icon: <UnderlineOutlined />, key: 'ed.underline' },
  { cmd: 'insertUnorderedList', icon: <UnorderedListOutlined />, key: 'ed.ul' },
  { cmd: 'insertOrderedList', icon: <OrderedListOutlined />, key: 'ed.ol' },
  { cmd: 'removeFormat', icon: <ClearOutlined />, key: 'ed.clear' },
] as const;

/**
 * A light rich-text field (lazy-loaded by the compose form): a contentEditable area with a toolbar for bold, italic,
 * underline and lists, through the browser's editing commands. It holds HTML; the API sanitises it (sanitize-html)
 * whatever the browser produced or was pasted. No editor library: the few formats a notice needs do not justify one.
 */
export default function RichEditor({ value, onChange, id }: { value?: string; onChange?: (html: string) => void; id?: string }) {
  const s = noticesStrings.use();
  const ref = useRef<HTMLDivElement>(null);
  const last = useRef<string | undefined>(undefined);

  // the form set (or reset) the value: show it; what the user typed is not written back
  useEffect(() => {
    if (ref.current && value !== last.current) {
      ref.current.innerHTML = value ?? '';
      last.current = value;
    }
  }, [value]);

  const emit = () => {
    const el = ref.current;
    if (!el) return;
    const html = el.textContent?.trim() || el.querySelector('img') ? el.innerHTML : '';
    last.current = html;
    onChange?.(html);
  };

  return (
    <div className="notice-editor">
      <Flex gap={2} wrap className="notice-editor-bar" role="toolbar">
        {COMMANDS.map((c) => (
          <Tooltip key={c.cmd} title={s(c.key)}>
            <Button
              type="text"
              size="small"
              icon={c.icon}
              aria-label={s(c.key)}
              // keep the selection in the editable area
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => {
                ref.current?.focus();
                document.execCommand(c.cmd);
                emit();
              }}
            />
          </Tooltip>
        ))}
      </Flex>
      <div
        id={id}
        ref={ref}
        className="notice-editor-area"
        contentEditable
        role="textbox"
        aria-multiline="true"
        data-placeholder={s('ed.placeholder')}
        onInput={emit}
        onBlur={emit}
        onPaste={(e) => {
          // plain text only: pasted documents bring styles the notice does not keep anyway
          e.preventDefault();
          document.execCommand('insertText', false, e.clipboardData.getData('text/plain'));
        }}
        suppressContentEditableWarning
      />
    </div>
  );
}
