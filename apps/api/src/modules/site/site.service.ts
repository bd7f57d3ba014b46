import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PageConfig } from '@wantuo/shared';
import sanitizeHtml from 'sanitize-html';
import { DataSource } from 'typeorm';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { SiteSetting } from './entities/site-setting.entity';

const ABOUT_HTML: sanitizeHtml.IOptions = {
  allowedTags: sanitizeHtml.defaults.allowedTags.concat(['img', 'h1', 'h2', 'span']),
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'], img: ['src', 'alt', 'width', 'height'], '*': ['style'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedStyles: { '*': { 'text-align': [/^(left|right|center|justify)$/], color: [/^#[0-9a-f]{3,6}$/i] } },
};

/** The start-up page configuration and the about-us text: read by anyone, edited by the platform operator. */
@Injectable()
export class SiteService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async pageConfig(): Promise<PageConfig & { version: number }> {
    const s = await this.db.getRepository(SiteSetting).findOneByOrFail({ key: 'page_config' });
    const value = s.value as PageConfig;
    // a configuration saved before the footer had its public-security filing number has none
    return { ...value, footer: { ...value.footer, police_filing: value.footer.police_filing ?? null }, version: s.version };
  }

  async savePageConfig(user: SessionUser, input: PageConfig & { version: number }): Promise<PageConfig & { version: number }> {
    const { version, ...value } = input;
    await this.save(user, 'page_config', value, version);
    return this.pageConfig();
  }

  async aboutUs(): Promise<{ content: string; version: number; updated_at: string }> {
    const s = await this.db.getRepository(SiteSetting).findOneByOrFail({ key: 'about_us' });
    return { content: (s.value as { content: string }).content, version: s.version, updated_at: s.updatedAt.toISOString() };
  }

  async saveAboutUs(user: SessionUser, input: { content: string; version: number }) {
    await this.save(user, 'about_us', { content: sanitizeHtml(input.content, ABOUT_HTML) }, input.version);
    return this.aboutUs();
  }

  /** Optimistic concurrency: the write only lands on the version the editor read. */
  private async save(user: SessionUser, key: SiteSetting['key'], value: unknown, version: number): Promise<void> {
    const result = await this.db
      .createQueryBuilder()
      .update(SiteSetting)
      .set({ value: () => ':value', updatedBy: user.id })
      .setParameter('value', JSON.stringify(value))
      .where('key = :key and version = :version', { key, version })
      .execute();
    if (result.affected !== 1) throw new AppError('error.conflict');
  }
}
