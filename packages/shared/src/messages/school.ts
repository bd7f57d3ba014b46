import type { Bilingual } from './bilingual';

/** The institution: balance, payment password, renewal (school.*), payments and refunds (payments.*), resources (resources.*). */
export const schoolMessages = {
  'school.not_found': { zh: '未找到机构', en: 'Institution not found' },
  'payments.provider_unavailable': {
    zh: '微信支付暂时不可用，请稍后重试或使用余额支付',
    en: 'WeChat Pay is not available right now: try again later or pay from the balance',
  },
  'payments.not_found': { zh: '未找到该支付订单', en: 'No such payment' },
  'payments.wechat_not_bound': {
    zh: '您的账号尚未绑定微信，请从公众号进入并绑定后再用微信支付',
    en: 'Your account is not bound to WeChat: open this page from the official account and bind it to pay in WeChat',
  },
  'payments.wechat_other_account': {
    zh: '您的微信绑定在另一个公众号下，当前微信支付不能为其付款，请用扫码支付或联系机构',
    en: 'Your WeChat is bound under another official account, which this WeChat Pay cannot charge: pay by QR code or ask the institution',
  },
  'payments.school_no_merchant': {
    zh: '本校尚未开通微信在线缴费，请到学校前台缴费',
    en: 'This school does not take online payments yet: please pay at the school desk',
  },
  'payments.merchant_unavailable': {
    zh: '本校的微信收款账户暂不可用，请稍后重试或到学校前台缴费',
    en: "The school's WeChat Pay account cannot take payments right now: try again later or pay at the school desk",
  },
  'payments.sub_merchant_changed': {
    zh: '该机构的收款商户刚被他人修改，请刷新后再试',
    en: "Someone else has just changed this school's merchant: reload and try again",
  },
  'payments.sub_merchant_taken': {
    zh: '该特约商户号已登记给另一家机构',
    en: 'This sub-merchant number is recorded for another school',
  },
  'payments.sub_merchant_same': { zh: '登记的商户号与当前一致，没有变化', en: 'That is the sub-merchant already recorded: nothing changes' },
  'payments.sub_merchant_platform': {
    zh: '这是平台自己的收款商户号，不能登记给机构',
    en: "That is the platform's own merchant number: it cannot be a school's",
  },
  'payments.bill_difference_resolved': { zh: '该差异已处理', en: 'This difference has already been resolved' },
  'payments.bill_difference_not_found': { zh: '未找到该对账差异', en: 'No such reconciliation difference' },
  'payments.bill_not_ready': {
    zh: '微信支付尚未生成该日账单（次日 10 点后可下载），请稍后再对账',
    en: "WeChat Pay has not made that day's bill yet (it is ready after 10:00 the next day): reconcile later",
  },
  'payments.bill_date_future': { zh: '只能对已结束的日期对账', en: 'Only a day that has ended can be reconciled' },
  'school.v.sub_mchid_invalid': { zh: '特约商户号为 8-12 位数字', en: 'A sub-merchant number has 8 to 12 digits' },
  'school.v.sub_appid_invalid': {
    zh: '公众号 AppID 以 wx 开头，共 18 位',
    en: "An official account's AppID starts with wx and has 18 characters",
  },
  'school.v.bill_state_invalid': { zh: '状态无效', en: 'Invalid state' },
  'school.v.resolution_required': { zh: '请填写处理说明（至少 2 个字）', en: 'Say what was done (at least 2 characters)' },
  'school.deal_pwd_not_set': { zh: '请先设置支付密码', en: 'Please set a payment password first' },
  'school.deal_pwd_wrong': { zh: '支付密码错误，还可尝试 {left} 次', en: 'Wrong payment password, {left} tries left' },
  'school.deal_pwd_locked': {
    zh: '支付密码错误次数过多，余额支付已锁定，请 {minutes} 分钟后再试',
    en: 'Too many wrong payment passwords: balance payments are locked, try again in {minutes} minutes',
  },
  'school.balance_insufficient': {
    zh: '余额不足：当前余额 {balance} 元，需支付 {amount} 元',
    en: 'Balance too low: {balance} yuan available, {amount} yuan needed',
  },
  'payments.not_paid': { zh: '该订单尚未支付，不能退款', en: 'This payment was not paid: there is nothing to refund' },
  'payments.fully_refunded': { zh: '该订单已全额退款', en: 'This payment has been refunded in full' },
  'payments.refund_too_much': {
    zh: '退款金额超出可退金额：可退 {remaining} 元，申请退款 {amount} 元',
    en: 'The refund exceeds what is left: {remaining} yuan refundable, {amount} yuan asked',
  },
  'payments.refund_unsupported': { zh: '该类订单不支持退款', en: 'Payments of this kind cannot be refunded' },
  'payments.refund_failed': {
    zh: '微信支付未受理这笔退款（{reason}），没有退出任何款项',
    en: 'WeChat Pay refused this refund ({reason}): nothing was refunded',
  },
  'school.refund_balance_insufficient': {
    zh: '机构余额不足以扣回这笔充值：当前余额 {balance} 元，需扣回 {amount} 元',
    en: 'The balance is too low to take this top-up back: {balance} yuan available, {amount} yuan to take back',
  },
  'school.v.deal_pwd_invalid': { zh: '支付密码为 6 位数字', en: 'The payment password has 6 digits' },
  'payments.v.channel_invalid': { zh: '支付方式无效', en: 'Choose a valid way to pay' },
  'school.v.proof_required': { zh: '请输入登录密码或短信验证码', en: 'Enter the account password or an SMS code' },
  'school.v.top_up_amount_invalid': { zh: '充值金额需在 1 元到 500000 元之间', en: 'A top-up is between 1 and 500000 yuan' },
  'school.v.period_invalid': { zh: '续费周期只能是 term（一学期）或 year（一年）', en: 'The period is term or year' },
  'school.v.request_id_invalid': { zh: '请求编号需为 8-64 位字母、数字、_ 或 -', en: 'A request id has 8-64 letters, digits, _ or -' },
  'school.v.ledger_type_invalid': { zh: '类型只能是 top_up、payment、refund 或 adjustment', en: 'The type is top_up, payment, refund or adjustment' },
  'school.v.date_invalid': { zh: '日期格式应为 YYYY-MM-DD', en: 'A date is YYYY-MM-DD' },
  'school.v.date_range_invalid': { zh: '结束日期不能早于开始日期', en: 'The end date cannot be before the start date' },
  'school.v.id_invalid': { zh: '编号无效', en: 'Invalid id' },
  'school.v.out_trade_no_invalid': { zh: '订单号无效', en: 'Invalid order number' },
  'school.v.price_invalid': { zh: '价格需为 0.01 元到 1000000 元之间的金额（分）', en: 'A price is an amount in fen from 0.01 to 1000000 yuan' },
  'school.v.adjust_amount_invalid': {
    zh: '调整金额需为非零整数（分），绝对值不超过 1000000 元',
    en: 'An adjustment is a non-zero whole number of fen, at most 1000000 yuan either way',
  },
  'school.v.reason_required': { zh: '请填写调整原因（至少 2 个字）', en: 'Give the reason for the adjustment (at least 2 characters)' },
  'school.v.refund_amount_invalid': {
    zh: '退款金额需为正整数（分），不超过 1000000 元',
    en: 'A refund is a positive whole number of fen, at most 1000000 yuan',
  },
  'school.v.refund_reason_required': { zh: '请填写退款原因（2 到 80 个字）', en: 'Give the reason for the refund (2 to 80 characters)' },
  'school.v.payment_state_invalid': { zh: '订单状态只能是 pending、paid、closed 或 refunded', en: 'The state is pending, paid, closed or refunded' },
  'resources.not_found': { zh: '未找到该资源', en: 'Resource not found' },
  'resources.file_not_found': { zh: '未找到上传的文件，请重新上传', en: 'The uploaded file was not found; upload it again' },
  'resources.v.audience': { zh: '请选择公开资源或机构资料', en: 'Choose a public resource or school material' },
  'resources.v.title_required': { zh: '请填写标题', en: 'Enter a title' },
  'resources.v.file_required': { zh: '请先上传文件', en: 'Upload the file first' },
  'resources.v.label_required': { zh: '学科和年级不能为空白', en: 'Subject and grade cannot be blank' },
  'resources.v.public_no_subject': { zh: '公开资源不分学科和年级', en: 'Public resources have no subject or grade' },
} satisfies Record<string, Bilingual>;
