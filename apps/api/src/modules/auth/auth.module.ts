import { Module } from '@nestjs/common';
import { SiteModule } from '../site/site.module';
import { SmsModule } from '../sms/sms.module';
import { ActivityService } from './activity.service';
import { AuthRepository } from './auth.repository';
import { AuthController, SmsController } from './auth.controller';
import { AuthService } from './auth.service';
import { QrLoginController } from './qr-login.controller';
import { QrLoginService } from './qr-login.service';

@Module({
  imports: [SmsModule, SiteModule],
  controllers: [AuthController, SmsController, QrLoginController],
  providers: [AuthRepository, AuthService, ActivityService, QrLoginService],
  exports: [AuthService, ActivityService],
})
export class AuthModule {}
