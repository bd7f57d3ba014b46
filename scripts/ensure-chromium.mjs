#!/usr/bin/env node
// The browser journeys drive Debian's Chromium (never a downloaded browser build). Install it, with a CJK font
// for readable screenshots, when it is missing and we may (root with apt-get); otherwise say what to install.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export function ensureChromium() {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const font = '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc';
  if (existsSync(chromium) && existsSync(font)) return;
  const canApt = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!canApt) {
    console.warn(`> ${chromium} or a CJK font is missing: install the Debian packages chromium and fonts-wqy-zenhei for the browser journeys`);
    return;
  }
  console.log('> installing chromium and fonts-wqy-zenhei (Debian packages) for the browser journeys');
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-wqy-zenhei', { stdio: 'inherit' });
}

if (process.argv[1] && process.argv[1].endsWith('ensure-chromium.mjs')) ensureChromium();
