import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { from, mergeMap, type Observable } from 'rxjs';
import { declarationOfHandler } from '../../core/http/action.decorator';
import type { AppRequest } from '../../core/http/request-context';
import { ChildAccessLog } from './access-log.service';
import { CHILD_READS } from './child-reads';

/**
 * Records a row of the access log after each successful answer of an action that carries children's data
 * (CHILD_READS), before the answer leaves: a read that cannot be logged fails.
 */
@Injectable()
export class ChildReadsInterceptor implements NestInterceptor {
  constructor(private readonly log: ChildAccessLog) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const action = ctx.getType() === 'http' ? declarationOfHandler(ctx.getHandler())?.action : undefined;
    const read = action ? CHILD_READS[action] : undefined;
    if (!read) return next.handle();
    const req = ctx.switchToHttp().getRequest<AppRequest>();
    return next.handle().pipe(
      mergeMap((answer) =>
        from(
          (async () => {
            if (req.user) {
              const input = { ...(req.query as Record<string, unknown>), ...((req.body ?? {}) as Record<string, unknown>) };
              await this.log.record(req.user, read.ids(input, answer) as number[], read.what);
            }
            return answer;
          })(),
        ),
      ),
    );
  }
}
