import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import type { Logger } from 'pino';
import { AuthGuard } from './core/auth/auth.guard';
import { RouteCatalogue } from './core/auth/route-catalogue';
import type { AppConfig } from './core/config/config';
import { CoreModule } from './core/core.module';
import { HealthController } from './core/health/health.controller';
import { EnvelopeInterceptor } from './core/http/envelope.interceptor';
import { EnvelopeExceptionFilter } from './core/http/exception.filter';
import { MetricsModule } from './core/metrics/metrics.module';
import { RateLimitGuard, rateLimitModule } from './core/rate-limit/rate-limit';
import { AlertsModule } from './modules/alerts/alerts.module';
import { HomeModule } from './modules/home/home.module';
import { BoardModule } from './modules/board/board.module';
import { ApplicationsModule } from './modules/applications/applications.module';
import { AuthModule } from './modules/auth/auth.module';
import { CareModule } from './modules/care/care.module';
import { ContractUsageModule } from './modules/contracts/usage/usage.module';
import { ContractsModule } from './modules/contracts/contracts.module';
import { CoursewareModule } from './modules/courseware/courseware.module';
import { LiveModule } from './modules/live/live.module';
import { PointsModule } from './modules/points/points.module';
import { ExamsModule } from './modules/exams/exams.module';
import { HomeworkModule } from './modules/homework/homework.module';
import { NoticesModule } from './modules/notices/notices.module';
import { MealsModule } from './modules/meals/meals.module';
import { DevModule } from './sandboxes/dev.module';
import { WechatPaySandboxModule } from './sandboxes/wechatpay-sandbox/wechatpay-sandbox.module';
import { WechatSandboxModule } from './sandboxes/wechat-sandbox/wechat-sandbox.module';
import { SmsFakesModule } from './sandboxes/sms-fake/sms-fakes.module';
import { FlowModule } from './modules/flow/flow.module';
import { PickupModule } from './modules/pickup/pickup.module';
import { SchoolModule } from './modules/school/school.module';
import { SiteModule } from './modules/site/site.module';
import { TimetableModule } from './modules/timetable/timetable.module';
import { TeachingModule } from './modules/teaching/teaching.module';
import { TutoringModule } from './modules/tutoring/tutoring.module';
import { StaffModule } from './modules/staff/staff.module';
import { StoreModule } from './modules/store/store.module';
import { LeaveModule } from './modules/leave/leave.module';
import { StudentsModule } from './modules/students/students.module';
import { TasksModule } from './modules/tasks/tasks.module';
import { WechatModule } from './modules/wechat/wechat.module';
import { MessagesModule } from './modules/messages/messages.module';
import { ReportsModule } from './modules/reports/reports.module';
import { PrivacyModule } from './modules/privacy/privacy.module';
import { ReceiptsModule } from './modules/receipts/receipts.module';
import { ConversationsModule } from './modules/conversations/conversations.module';
import { ChildReadsInterceptor } from './modules/privacy/child-reads.interceptor';
import { WorkerModule } from './worker.module';

export interface AppOptions {
  /** run the job processors in this process (no Redis, or tests) */
  runJobs: boolean;
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig & { databaseUrl: string }, logger: Logger, opts: AppOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config, logger),
        MetricsModule.forRoot({ role: 'api' }),
        rateLimitModule(),
        AuthModule,
        SiteModule,
        ApplicationsModule,
        SchoolModule,
        // people and care modules
        LeaveModule,
        FlowModule,
        PickupModule,
        // keeps contract usage current after the flow's commits (its domain events are emitted in this process only)
        ContractUsageModule,
        TasksModule,
        LiveModule,
        AlertsModule,
        HomeModule,
        BoardModule,
        StudentsModule,
        CareModule,
        TimetableModule,
        StaffModule,
        ContractsModule,
        PointsModule,
        NoticesModule,
        MealsModule,
        TeachingModule,
        TutoringModule,
        ExamsModule,
        HomeworkModule,
        CoursewareModule,
        StoreModule,
        WechatModule,
        // guardians' messages: WeChat first, SMS as the fallback (and the daily flow's arrival/departure messages)
        MessagesModule,
        // the child's daily report (每日反馈, issue 27)
        ReportsModule,
        PrivacyModule,
        // receipts (收据) of contracts, dinners and their refunds (issue 40)
        ReceiptsModule,
        // family conversations between a child's guardians and the school (issue 40)
        ConversationsModule,
        ...(config.env === 'production' ? [] : [DevModule]),
        ...(config.wechatpay ? [] : [WechatPaySandboxModule]),
        ...(config.wechatOa ? [] : [WechatSandboxModule]),
        ...(config.sms.fakes ? [SmsFakesModule] : []),
        ...(opts.runJobs ? [WorkerModule] : []),
      ],
      controllers: [HealthController],
      providers: [
        RouteCatalogue,
        // global guards run in this order: the per-IP limits before the token lookup
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        // inside the envelope: sees each answer as its service returned it
        { provide: APP_INTERCEPTOR, useExisting: ChildReadsInterceptor },
        { provide: APP_FILTER, useClass: EnvelopeExceptionFilter },
      ],
    };
  }
}

/** The worker process: core plus processors, no HTTP. */
@Module({})
export class WorkerAppModule {
  static forRoot(config: AppConfig & { databaseUrl: string }, logger: Logger): DynamicModule {
    return {
      module: WorkerAppModule,
      imports: [
        CoreModule.forRoot(config, logger),
        // no HTTP server here: the worker's figures (job durations, its pool) on WORKER_METRICS_PORT when set
        MetricsModule.forRoot({ role: 'worker', port: config.workerMetricsPort, host: config.host }),
        WorkerModule,
      ],
    };
  }
}
