import { afterEach, describe, expect, it } from 'vitest';
import { mount, unmountAll } from '../../test-utils';
import { PolicyText, policyBlocks } from './policy-text';

afterEach(async () => {
  await unmountAll();
  document.body.innerHTML = '';
});

describe('a policy text (plain text with a little markdown) as elements', () => {
  it.each([
    ['# 隐私政策', [{ kind: 'heading', level: 1, text: '隐私政策' }]],
    [
      '## 为什么收集\n#### 细节',
      [
        { kind: 'heading', level: 2, text: '为什么收集' },
        { kind: 'heading', level: 3, text: '细节' },
      ],
    ],
    [
      '第一行\n第二行\n\n另一段',
      [
        { kind: 'paragraph', text: '第一行\n第二行' },
        { kind: 'paragraph', text: '另一段' },
      ],
    ],
    ['- 监护人\n* 孩子\n• 接送人', [{ kind: 'list', ordered: false, items: ['监护人', '孩子', '接送人'] }]],
    ['1. 同意\n2、单独同意\n3) 最少够用', [{ kind: 'list', ordered: true, items: ['同意', '单独同意', '最少够用'] }]],
    [
      '- 甲\n  续行\n1. 乙',
      [
        { kind: 'list', ordered: false, items: ['甲\n续行'] },
        { kind: 'list', ordered: true, items: ['乙'] },
      ],
    ],
    [
      '说明\n- 项',
      [
        { kind: 'paragraph', text: '说明' },
        { kind: 'list', ordered: false, items: ['项'] },
      ],
    ],
    ['\r\n\r\n', []],
  ])('%j', (body, blocks) => {
    expect(policyBlocks(body)).toEqual(blocks);
  });

  it('renders headings, lists and bold; the title left out when the page shows it', async () => {
    const el = await mount(<PolicyText body={'# 规则\n\n## 一、同意\n1. **监护人同意**：先同意\n- 照片'} skipTitle />);
    expect(el.querySelector('h2')).toBeNull();
    expect(el.querySelector('h3')?.textContent).toBe('一、同意');
    expect(el.querySelector('ol li strong')?.textContent).toBe('监护人同意');
    expect(el.querySelector('ul li')?.textContent).toBe('照片');
  });

  it('never renders the text as markup: tags show as the characters they are', async () => {
    const evil = '<script>window.pwned = 1</script>\n- <img src=x onerror="window.pwned = 2">\n**<b>粗</b>**';
    const el = await mount(<PolicyText body={evil} />);
    expect(el.querySelector('script, img, b')).toBeNull();
    expect(el.textContent).toContain('<script>window.pwned = 1</script>');
    expect(el.textContent).toContain('<img src=x onerror="window.pwned = 2">');
    expect((window as { pwned?: number }).pwned).toBeUndefined();
  });
});
