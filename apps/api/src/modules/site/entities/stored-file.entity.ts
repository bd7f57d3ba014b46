import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** An uploaded file; the bytes live under UPLOAD_DIR at storagePath. */
@Entity('files')
export class StoredFile {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'school_id', type: 'int', nullable: true })
  schoolId: number | null;

  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 100 })
  mime: string;

  @Column({ type: 'int' })
  size: number;

  @Column({ type: 'char', length: 64 })
  sha256: string;

  @Column({ name: 'storage_path', type: 'varchar', length: 300 })
  storagePath: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
