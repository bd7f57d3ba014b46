import { Controller } from '@nestjs/common';

/** The guardians' rights: export, correction and deletion requests (issue 37). */
@Controller('api/index')
export class RightsController {}
