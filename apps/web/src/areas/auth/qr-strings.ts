import { defineStrings } from '../../i18n/strings';

/** QR sign-in: the desktop's code and the phone's scan page. */
export const qrStrings = defineStrings({
  // desktop
  'qr.hint': { zh: '请用已登录的手机打开「扫码登录」，扫描二维码', en: 'On a signed-in phone, open "Scan to sign in" and scan this code' },
  'qr.where': { zh: '教师端、家长端菜单 → 我的 → 扫码登录', en: 'Teacher or parent menu → Me → Scan to sign in' },
  'qr.scanned': { zh: '已扫描，请在手机上确认', en: 'Scanned: confirm on your phone' },
  'qr.confirmed': { zh: '已确认，正在登录…', en: 'Confirmed, signing in…' },
  'qr.expired': { zh: '二维码已过期', en: 'The QR code has expired' },
  'qr.cancelled': { zh: '已在手机上取消', en: 'Cancelled on the phone' },
  'qr.refresh': { zh: '刷新', en: 'Refresh' },
  'qr.loading_failed': { zh: '二维码加载失败', en: 'The QR code could not be loaded' },
  'qr.expires_in': { zh: '{s} 秒后过期', en: 'Expires in {s} s' },
  // phone
  'scan.title': { zh: '扫码登录', en: 'Scan to sign in' },
  'scan.intro': {
    zh: '扫描电脑登录页上的二维码，在电脑上登录本账号',
    en: "Scan the QR code on the computer's sign-in page to sign in there with this account",
  },
  'scan.start_camera': { zh: '打开摄像头扫码', en: 'Scan with the camera' },
  'scan.stop_camera': { zh: '关闭摄像头', en: 'Stop the camera' },
  'scan.pick_photo': { zh: '从相册选择二维码图片', en: 'Choose a photo of the code' },
  'scan.aim': { zh: '将二维码放入框内，即可自动扫描', en: 'Hold the QR code inside the frame' },
  'scan.no_camera': {
    zh: '无法使用摄像头（需要 HTTPS 或已拒绝授权），请从相册选择二维码图片',
    en: 'The camera is not available (it needs HTTPS and your permission): choose a photo instead',
  },
  'scan.reading': { zh: '正在识别…', en: 'Reading…' },
  'scan.no_code': { zh: '图片中没有找到二维码，请换一张清晰的图片', en: 'No QR code found in this picture: try a clearer one' },
  'scan.not_login_code': {
    zh: '这不是登录二维码，请扫描电脑登录页上的二维码',
    en: "This is not a sign-in QR code: scan the one on the computer's sign-in page",
  },
  'scan.confirm_title': { zh: '确认在电脑上登录？', en: 'Sign in on the computer?' },
  'scan.account': { zh: '登录账号', en: 'Account' },
  'scan.device': { zh: '登录设备', en: 'Device' },
  'scan.ip': { zh: '网络地址', en: 'Address' },
  'scan.time': { zh: '请求时间', en: 'Requested' },
  'scan.unknown_device': { zh: '未知浏览器', en: 'Unknown browser' },
  'scan.warning': {
    zh: '请确认是您本人正在该电脑上登录；如不是，请点「取消」。',
    en: 'Make sure it is you signing in on that computer; if not, tap Cancel.',
  },
  'scan.confirm': { zh: '确认登录', en: 'Sign in' },
  'scan.cancel': { zh: '取消', en: 'Cancel' },
  'scan.done': { zh: '已在电脑上登录', en: 'Signed in on the computer' },
  'scan.done_hint': { zh: '电脑将以 {name} 的身份登录', en: 'The computer is signed in as {name}' },
  'scan.cancelled': { zh: '已取消登录', en: 'Sign-in cancelled' },
  'scan.again': { zh: '重新扫码', en: 'Scan again' },
  'scan.failed': { zh: '无法登录', en: 'Cannot sign in' },
});
