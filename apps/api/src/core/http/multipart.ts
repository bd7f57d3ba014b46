import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { memoryStorage } from 'multer';
import { MultipartSafetyInterceptor } from './input-safety';

export const MULTIPART_FIELD = Symbol('multipart-field');
/** Largest upload the server reads at all; purposes have their own smaller limits (FilesService). */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

/**
 * A multipart/form-data action with one file field (the other fields are the action's input). File names are read as
 * UTF-8 (what browsers send, Chinese names included); the fields and the file name then go through the input layer's
 * text check like any other input.
 */
export function Multipart(field: string) {
  return applyDecorators(
    SetMetadata(MULTIPART_FIELD, field),
    UseInterceptors(
      FileInterceptor(field, {
        storage: memoryStorage(),
        defParamCharset: 'utf8',
        limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20, fieldSize: 100_000 },
      }),
      MultipartSafetyInterceptor,
    ),
  );
}
