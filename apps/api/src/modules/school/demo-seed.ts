import { Role } from '@wantuo/shared';
import type { DataSource } from 'typeorm';
import { hashPassword } from '../auth/passwords';

export const DEMO_PASSWORD = 'Demo@2026';

/** design.md §2: the demo accounts, their roles and mobiles. */
export const DEMO_ACCOUNTS = [
  { username: 'admin', role: Role.Admin, mobile: '13800000001', name: '王园长', label: '机构管理员 institution admin' },
  { username: 'teacher', role: Role.Teacher, mobile: '13800000002', name: '李老师', label: '老师 teacher' },
  { username: 'adviser', role: Role.HeadTeacher, mobile: '13800000005', name: '张班主任', label: '班主任 head teacher' },
  { username: 'parent', role: Role.Parent, mobile: '13800000006', name: '陈家长', label: '家长 parent' },
  { username: 'operator', role: Role.Operator, mobile: '13800000009', name: '平台运营', label: '平台运营 platform operator' },
] as const;

export interface SeedResult {
  schoolId: number;
  users: Record<(typeof DEMO_ACCOUNTS)[number]['username'], number>;
}

/**
 * Creates the demo school and its accounts once per database (remembered in site_settings 'seed.demo').
 * Returns null when the demo was seeded before.
 */
export async function seedDemo(db: DataSource): Promise<SeedResult | null> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return db.transaction(async (em) => {
    const inserted: unknown[] = await em.query(
      `insert into site_settings (key, value) values ('seed.demo', jsonb_build_object('at', now())) on conflict (key) do nothing returning key`,
    );
    if (inserted.length === 0) return null;
    const [school]: Array<{ id: number }> = await em.query(
      `insert into schools (name, timezone, service_expires_at, contact_phone)
       values ('阳光晚托中心（演示）', 'Asia/Shanghai', now() + interval '1 year', '13800000001') returning id`,
    );
    const users = {} as SeedResult['users'];
    for (const a of DEMO_ACCOUNTS) {
      const [u]: Array<{ id: number }> = await em.query(
        `insert into users (school_id, role, username, name, nickname, mobile, password_hash)
         values ($1, $2, $3, $4, $4, $5, $6) returning id`,
        [a.role === Role.Operator ? null : school.id, a.role, a.username, a.name, a.mobile, passwordHash],
      );
      users[a.username] = u.id;
    }
    return { schoolId: school.id, users };
  });
}

export function demoAccountsTable(): string {
  const rows = DEMO_ACCOUNTS.map((a) => `  ${a.username.padEnd(9)} ${a.mobile}  role ${a.role}  ${a.label}`);
  return [`Demo accounts (password ${DEMO_PASSWORD}):`, ...rows].join('\n');
}
