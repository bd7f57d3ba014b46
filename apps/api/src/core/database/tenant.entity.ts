import { Column, CreateDateColumn, UpdateDateColumn, VersionColumn } from 'typeorm';

/**
 * Base of every business row: it belongs to one school (taken from the session, never from the request),
 * carries a version for optimistic concurrency and its times as timestamptz.
 */
export abstract class TenantEntity {
  @Column({ name: 'school_id', type: 'int' })
  schoolId: number;

  @VersionColumn({ type: 'int' })
  version: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
