import type { Queue } from 'bullmq';
import type { JobsService } from '../../../core/jobs/jobs.service';
import { JOB_SPECS, type JobPayloads } from '../../../core/jobs/jobs.types';

export type FanOut = JobPayloads['sms.fanout'];

/** `sms.send` jobs per addBulk (one Redis round trip each). */
const BULK = 1_000;

/** The options JobsService.enqueue gives every `sms.send` job. */
const sendOptions = () => {
  const spec = JOB_SPECS['sms.send'];
  return { attempts: spec.attempts, backoff: { type: 'exponential', delay: spec.backoffMs }, removeOnComplete: 1000, removeOnFail: 5000 };
};

/**
 * Fans one text to many mobiles out into one `sms.send` job per mobile, added in bulks, each with the job id
 * `<key>-<mobile>`: a fan-out retried after adding part of its jobs adds none of them twice (BullMQ ignores an id it
 * holds). Answers how many jobs it asked for.
 */
export async function fanOutTexts(queue: Pick<Queue, 'addBulk'>, data: FanOut): Promise<number> {
  const opts = sendOptions();
  for (let i = 0; i < data.mobiles.length; i += BULK) {
    await queue.addBulk(
      data.mobiles.slice(i, i + BULK).map((mobile) => ({
        name: 'sms.send',
        data: { mobile, template: data.template, params: data.params },
        opts: { ...opts, jobId: `${data.key}-${mobile}` },
      })),
    );
  }
  return data.mobiles.length;
}

/** The fan-out through JobsService: BullMQ with Redis, else each text in-process. */
export async function fanOut(jobs: JobsService, data: FanOut): Promise<number> {
  if (jobs.allQueues()) return fanOutTexts(jobs.queue('sms'), data);
  for (const mobile of data.mobiles) await jobs.enqueue('sms.send', { mobile, template: data.template, params: data.params });
  return data.mobiles.length;
}
