import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Phone payments (issue 24): a provider payment records how the payer pays — Native QR (a desktop), JSAPI (inside
 * WeChat, by the payer's openid) or H5 (another phone browser) — and the provider's handle for it (prepay_id or
 * h5_url; code_url stays the Native QR's). The local WeChat Pay sandbox keeps the same of its orders.
 */
export class PayChannels1766736000000 implements MigrationInterface {
  name = 'PayChannels1766736000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      alter table payments
        add column channel varchar(8) not null default 'native' check (channel in ('native', 'jsapi', 'h5')),
        add column prepay_id varchar(64),
        add column h5_url text;

      alter table wechatpay_sandbox_orders
        add column trade_type varchar(8) not null default 'NATIVE' check (trade_type in ('NATIVE', 'JSAPI', 'MWEB')),
        add column payer_openid varchar(128),
        add column payer_client_ip varchar(45),
        add column prepay_id varchar(64);
      create unique index wechatpay_sandbox_orders_prepay on wechatpay_sandbox_orders (prepay_id) where prepay_id is not null;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      drop index if exists wechatpay_sandbox_orders_prepay;
      alter table wechatpay_sandbox_orders drop column prepay_id, drop column payer_client_ip, drop column payer_openid, drop column trade_type;
      alter table payments drop column h5_url, drop column prepay_id, drop column channel;
    `);
  }
}
