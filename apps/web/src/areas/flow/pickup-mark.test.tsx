import { describe, expect, it } from 'vitest';
import { mount } from '../../test-utils';
import { PickupMark } from './pickup-mark';

describe('PickupMark (the departure on the boards, issue 27)', () => {
  it('a verified departure names the person and relation; offline marked', async () => {
    const el = await mount(<PickupMark verified={{ name: '王芳', relation: '妈妈', offline: true }} override={null} />);
    const tag = el.querySelector('[data-testid="board-pickup-verified"]');
    expect(tag?.textContent).toContain('已核验 ✓ 王芳（妈妈）');
    expect(tag?.textContent).toContain('离线');
    expect(el.querySelector('[data-testid="board-pickup-manual"]')).toBeNull();
  });

  it("a manual release shows the head teacher's reason; the records tab has its own testid", async () => {
    const el = await mount(<PickupMark verified={null} override="舅舅接，已电话确认" scope="records" />);
    expect(el.querySelector('[data-testid="records-pickup-manual"]')?.textContent).toBe('人工放行：舅舅接，已电话确认');
  });

  it('a plain departure shows nothing', async () => {
    const el = await mount(<PickupMark verified={null} override={null} />);
    expect(el.textContent).toBe('');
  });
});
