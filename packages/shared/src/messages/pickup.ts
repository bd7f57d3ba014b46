import type { Bilingual } from './bilingual';

/** Verified pick-up codes (接送码, issue 27): refusals are loud and distinct (pickup.*). */
export const pickupMessages = {
  'pickup.v.code_invalid': { zh: '这不是接送码', en: 'This is not a pick-up code' },
  'pickup.v.verified_at_invalid': {
    zh: '离线核验时间无效（需与接送码一起提交）',
    en: 'The offline verification time is invalid (it goes with a pick-up code)',
  },
  'pickup.v.id_invalid': { zh: '编号无效', en: 'Invalid id' },
  'pickup.v.token_invalid': { zh: '接送链接无效', en: 'This pick-up link is invalid' },
  'pickup.malformed': { zh: '无法识别的接送码', en: 'Unrecognised pick-up code' },
  'pickup.bad_signature': { zh: '接送码签名无效：可能是伪造的接送码', en: 'The pick-up code’s signature is invalid: it may be forged' },
  'pickup.other_school': { zh: '这是其他机构的接送码', en: 'This pick-up code is of another school' },
  'pickup.expired': { zh: '接送码已过期，请让家长刷新后重新出示', en: 'The pick-up code has expired: ask for a fresh one' },
  'pickup.not_yet_valid': { zh: '接送码时间异常，请检查手机时间', en: 'The pick-up code’s time is off: check the phones’ clocks' },
  'pickup.offline_too_late': {
    zh: '离线核验已超过 5 分钟才上传，不予记录，请重新扫码',
    en: 'The offline check reached the server more than 5 minutes later: scan again',
  },
  'pickup.not_this_child': { zh: '未授权：此接送码不能接这个孩子', en: 'Not authorised: this pick-up code is not for this child' },
  'pickup.revoked': { zh: '未授权：此接送人的接送授权已被撤销', en: 'Not authorised: this person’s pick-up authorisation was revoked' },
  'pickup.replayed': { zh: '此接送码已经使用过（每个码只能离园一次）', en: 'This pick-up code was already used (one departure per code)' },
  'pickup.no_children': { zh: '没有可接送的孩子', en: 'No child to pick up' },
  'pickup.person_not_found': { zh: '接送人不存在', en: 'Pick-up person not found' },
  'pickup.link_not_found': { zh: '接送链接不存在或已撤销', en: 'The pick-up link does not exist or was revoked' },
  'pickup.code_needs_one_class': { zh: '请一次只为一个接送码的孩子离园', en: 'Record a coded departure for that code’s children only' },
} satisfies Record<string, Bilingual>;
