import { Column, Entity, PrimaryColumn, UpdateDateColumn, VersionColumn } from 'typeorm';

/** Platform-wide settings edited by the operator: the start-up page configuration and the about-us text. */
@Entity('site_settings')
export class SiteSetting {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  key: 'page_config' | 'about_us' | 'seed.demo';

  @Column({ type: 'jsonb' })
  value: unknown;

  @VersionColumn({ type: 'int' })
  version: number;

  @Column({ name: 'updated_by', type: 'int', nullable: true })
  updatedBy: number | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
