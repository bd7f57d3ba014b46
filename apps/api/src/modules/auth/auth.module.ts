import { Module } from '@nestjs/common';
import { SiteModule } from '../site/site.module';
import { SmsModule } from '../sms/sms.module';
import { ActivityService } from './activity.service';
import { AuthController, SmsController } from './auth.controller';
import { AuthService } from './auth.service';

@Module({
  imports: [SmsModule, SiteModule],
  controllers: [AuthController, SmsController],
  providers: [AuthService, ActivityService],
  exports: [AuthService],
})
export class AuthModule {}
