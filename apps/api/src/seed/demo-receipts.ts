import { createHash, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EntityManager } from 'typeorm';
import { demoStampPng } from './demo-stamp';
import { ReceiptsRepository } from '../modules/receipts/receipts.repository';
import { issueReceipts } from '../modules/receipts/receipts.service';

/**
 * The demo school's receipts: its stamp (a red seal drawn by demoStampPng, stored as an upload under `uploadDir` when
 * one is given), then a receipt for every paid contract and dinner and every refund of them the demo has, issued at
 * the time the money moved (so the sweep finds nothing to do). In the seed's transaction.
 */
export async function seedDemoReceipts(em: EntityManager, schoolId: number, adminId: number, uploadDir?: string): Promise<number> {
  if (uploadDir) {
    const png = demoStampPng();
    const id = randomUUID();
    const storagePath = `demo/${id}.png`;
    await mkdir(join(uploadDir, 'demo'), { recursive: true });
    await writeFile(join(uploadDir, storagePath), png);
    const repo = new ReceiptsRepository(em);
    await repo.insertFile({
      id,
      schoolId,
      userId: adminId,
      name: '印章.png',
      mime: 'image/png',
      size: png.length,
      sha256: createHash('sha256').update(png).digest('hex'),
      storagePath,
    });
    await repo.setStamp(schoolId, id);
  }
  return issueReceipts(em, { schoolId }, { backdate: true });
}
