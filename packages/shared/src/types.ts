import type { Role } from './roles';

/** `data.userinfo` of login and mobilelogin (design.md §2, fixed contract). */
export interface LoginUserInfo {
  token: string;
  id: number;
  role: Role;
  nickname: string;
  /** avatar image URL, or null when none was uploaded */
  avatar_text: string | null;
  school_id: number | null;
  expires_at: string;
}

export interface LoginResult {
  userinfo: LoginUserInfo;
}

/** `data` of GET userInfo. */
export interface UserInfo {
  id: number;
  name: string;
  username: string;
  nickname: string;
  avatar_text: string | null;
  role: Role;
  school_id: number | null;
  school: { id: number; name: string; timezone: string; service_expires_at: string | null } | null;
  mobile: string | null;
  email: string | null;
  lang: 'zh-CN' | 'en';
}

export interface UploadedFile {
  id: string;
  url: string;
  name: string;
  mime: string;
  size: number;
}

/** Start-up page configuration (`index`), edited by the platform operator. */
export interface PageConfig {
  site_name: string;
  logo: string | null;
  nav: { title: string; path: string }[];
  banners: { image: string; title: string; link: string | null }[];
  footer: { text: string; icp: string | null };
  contact: { phone: string | null; email: string | null; address: string | null };
}
