import type { EntityManager } from 'typeorm';

/** A few realistic mall goods for the demo (category by the migration's seeded names), each with its first stock move. */
const DEMO_GOODS: Array<{ type: string; name: string; price_fen: number; stock: number; description: string }> = [
  {
    type: '文具用品',
    name: '得力 HB 铅笔（50支装）',
    price_fen: 2_580,
    stock: 200,
    description: '六角杆 HB 铅笔，带橡皮头，适合小学生日常书写与作业。',
  },
  { type: '文具用品', name: '晨光 A5 作业本（20本装）', price_fen: 3_200, stock: 150, description: '加厚护眼纸，田字格与横线本各 10 本。' },
  { type: '图书教辅', name: '小学生必背古诗词 75+80 首', price_fen: 1_990, stock: 80, description: '注音版，附名师朗读音频二维码。' },
  { type: '教学用具', name: '磁性小白板（A3，送白板笔）', price_fen: 4_500, stock: 60, description: '双面可写，可挂可立，辅导课分组讨论用。' },
  { type: '生活用品', name: '儿童免洗洗手液（500ml×3）', price_fen: 5_900, stock: 40, description: '温和配方，晚托中心公共区域常备。' },
];

export async function seedDemoGoods(em: EntityManager, operatorId: number): Promise<void> {
  await em.query(
    `with d as (select * from jsonb_to_recordset($1::jsonb) as x(type text, name text, price_fen bigint, stock int, description text)),
     g as (
       insert into store_goods (type_id, name, description, price_fen, stock, created_by)
       select t.id, d.name, d.description, d.price_fen, d.stock, $2 from d join store_goods_types t on t.name = d.type
       returning id, stock)
     insert into store_stock_moves (goods_id, kind, delta, stock_after, actor_id) select id, 'add', stock, stock, $2 from g`,
    [JSON.stringify(DEMO_GOODS), operatorId],
  );
}
