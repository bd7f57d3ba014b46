import { JobStatus, UserStatus, type Role } from '@wantuo/shared';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn, VersionColumn } from 'typeorm';

/** The account's and the employment's states are the shared constants (a left-job teacher cannot sign in). */
export { JobStatus, UserStatus };
export type Duty = 'shuttle' | 'tutor' | 'head';

/**
 * Every account: staff (1 admin, 2 teacher, 5 head teacher), parents (6) and platform operators (9, no school).
 * User names and e-mails are unique on the platform; a mobile is unique within a school.
 */
@Entity('users')
export class User {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'school_id', type: 'int', nullable: true })
  schoolId: number | null;

  @Column({ type: 'smallint' })
  role: Role;

  @Column({ type: 'varchar', length: 64 })
  username: string;

  @Column({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'varchar', length: 64 })
  nickname: string;

  @Column({ type: 'varchar', length: 20, nullable: true })
  mobile: string | null;

  @Column({ type: 'varchar', length: 254, nullable: true })
  email: string | null;

  @Column({ name: 'password_hash', type: 'text', nullable: true, select: false })
  passwordHash: string | null;

  @Column({ name: 'avatar_url', type: 'text', nullable: true })
  avatarUrl: string | null;

  @Column({ type: 'varchar', length: 8, default: 'zh-CN' })
  lang: string;

  @Column({ type: 'smallint', default: UserStatus.Active })
  status: number;

  @Column({ name: 'job_status', type: 'smallint', default: JobStatus.OnJob })
  jobStatus: number;

  @Column({ type: 'varchar', length: 10, array: true, default: () => "'{}'" })
  duties: Duty[];

  @Column({ type: 'smallint', nullable: true })
  gender: 1 | 2 | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  remark: string | null;

  @Column({ name: 'left_at', type: 'timestamptz', nullable: true })
  leftAt: Date | null;

  @Column({ name: 'failed_logins', type: 'int', default: 0 })
  failedLogins: number;

  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;

  @Column({ name: 'last_login_at', type: 'timestamptz', nullable: true })
  lastLoginAt: Date | null;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;

  @VersionColumn({ type: 'int' })
  version: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
