import { defineStrings } from '../../i18n/strings';

/** The operator's site configuration (also read by the public about page) and the applications. */
export const operatorStrings = defineStrings({
  'operator.site': { zh: '站点配置', en: 'Site configuration' },
  'operator.site_name': { zh: '站点名称', en: 'Site name' },
  'operator.footer': { zh: '页脚文字', en: 'Footer text' },
  'operator.icp': { zh: 'ICP 备案号', en: 'ICP licence' },
  'operator.police_filing': { zh: '公安备案号', en: 'Public-security filing' },
  'operator.police_filing_hint': {
    zh: '如 京公网安备11010502030143号；页脚链接到全国互联网安全管理服务平台的查询页',
    en: 'e.g. 京公网安备11010502030143号; the footer links it to the national filing lookup',
  },
  'operator.phone': { zh: '联系电话', en: 'Contact phone' },
  'operator.email': { zh: '联系邮箱', en: 'Contact e-mail' },
  'operator.address': { zh: '联系地址', en: 'Address' },
  'operator.about': { zh: '关于我们', en: 'About us' },
  'operator.applications': { zh: '入驻申请', en: 'Applications' },
  'operator.conflict_hint': {
    zh: '保存时会检查版本：他人已修改时不会覆盖，请刷新后再改。',
    en: 'Saving checks the version: if someone else changed it meanwhile nothing is overwritten; refresh and edit again.',
  },
});
