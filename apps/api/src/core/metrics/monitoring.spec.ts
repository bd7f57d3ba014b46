import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { parse } from 'yaml';
import type { AppConfig } from '../config/config';
import type { JobsService } from '../jobs/jobs.service';
import { PoolCollector, ScrapeCollectors } from './collectors';
import { Metrics } from './metrics';

/**
 * deploy/monitoring (Prometheus, its alert rules, the Grafana dashboard) and the monitoring profile of
 * docker-compose.yml, checked against what the code exports: a renamed metric fails here, not on a silent dashboard.
 */
const root = join(__dirname, '..', '..', '..', '..', '..');
const monitoring = join(root, 'deploy', 'monitoring');
const read = (...path: string[]) => readFileSync(join(...path), 'utf8');

interface Rule {
  alert: string;
  expr: string;
  for?: string;
}
const rules: Rule[] = (parse(read(monitoring, 'alerts.yml')) as { groups: Array<{ rules: Rule[] }> }).groups.flatMap((g) => g.rules);
const dashboard = JSON.parse(read(monitoring, 'grafana', 'dashboards', 'wantuo.json')) as {
  uid: string;
  panels: Array<{ type: string; title: string; datasource?: { uid: string }; targets?: Array<{ expr: string }> }>;
};
const panelExprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ where: `panel "${p.title}"`, expr: t.expr })));
const ruleExprs = rules.map((r) => ({ where: `alert ${r.alert}`, expr: r.expr }));

/** Every metric name the API's and the worker's registries hold (a histogram's series too), without any I/O. */
function exportedNames(): Set<string> {
  const metrics = new Metrics();
  const none = {} as never;
  new PoolCollector(metrics, none as DataSource).onModuleInit();
  new ScrapeCollectors(metrics, none as DataSource, none as JobsService, none as AppConfig, none as Logger).onModuleInit();
  const names = new Set<string>();
  for (const m of metrics.registry.getMetricsAsArray()) {
    const { name, type } = m as unknown as { name: string; type: string };
    names.add(name);
    if (type === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(name + s);
    if (type === 'summary') for (const s of ['_sum', '_count']) names.add(name + s);
  }
  return names;
}

/** Series Prometheus makes itself for every target. */
const PROMETHEUS_OWN = new Set(['up', 'scrape_duration_seconds', 'scrape_samples_scraped']);
const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'inf', 'nan']);

/** The metric names a PromQL expression reads: identifiers that are not functions, keywords, labels or durations. */
export function metricNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names: string[] = [];
  for (const m of stripped.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)) {
    const [, word, call] = m;
    const before = stripped[m.index - 1];
    if (call || KEYWORDS.has(word.toLowerCase()) || (before !== undefined && /[0-9.]/.test(before))) continue;
    names.push(word);
  }
  return names;
}

describe('deploy/monitoring', () => {
  const exported = exportedNames();

  it('reads metric names out of PromQL (the check below would catch an unknown one)', () => {
    expect(metricNames('histogram_quantile(0.99, sum by (le) (rate(flow_delivery_lag_seconds_bucket{job="api"}[5m]))) > 1')).toEqual([
      'flow_delivery_lag_seconds_bucket',
    ]);
    expect(metricNames('max by (queue) (delta(queue_jobs{state="failed"}[15m])) > 0 or absent(up{job="api"})')).toEqual(['queue_jobs', 'up']);
    expect(metricNames('min(disk_free_bytes / disk_size_bytes) < 0.10')).toEqual(['disk_free_bytes', 'disk_size_bytes']);
    expect(metricNames('rate(no_such_metric_total[5m])').filter((n) => !exported.has(n))).toEqual(['no_such_metric_total']);
  });

  it('the code exports the figures of issue 25', () => {
    for (const name of [
      'http_request_duration_seconds_bucket',
      'job_duration_seconds_bucket',
      'queue_jobs',
      'live_sockets',
      'live_messages_delivered_total',
      'flow_delivery_lag_seconds_bucket',
      'db_pool_connections',
      'payments_pending',
      'sms_messages',
      'disk_free_bytes',
      'process_cpu_seconds_total',
    ]) {
      expect(exported).toContain(name);
    }
  });

  it('every metric an alert rule or a dashboard panel reads is one the code exports', () => {
    const used = [...ruleExprs, ...panelExprs].flatMap(({ where, expr }) => metricNames(expr).map((name) => ({ where, name })));
    expect(used.length).toBeGreaterThan(30);
    expect(used.filter(({ name }) => !exported.has(name) && !PROMETHEUS_OWN.has(name))).toEqual([]);
    // the dashboard shows every figure of the issue
    const shown = new Set(panelExprs.flatMap(({ expr }) => metricNames(expr)));
    for (const name of ['queue_jobs', 'live_sockets', 'live_messages_delivered_total', 'db_pool_connections', 'payments_pending', 'sms_messages']) {
      expect(shown).toContain(name);
    }
  });

  it('has the alerts operators need: API down, queue backlog, failed jobs, payments stuck, live lag p99 over 1 s, disk', () => {
    const byName = new Map(rules.map((r) => [r.alert, r]));
    expect([...byName.keys()]).toEqual(
      expect.arrayContaining(['ApiDown', 'QueueBacklog', 'JobsFailing', 'PaymentsStuck', 'LiveLagHigh', 'DiskFilling']),
    );
    expect(byName.get('ApiDown')!.expr).toMatch(/up\{job="api"\} == 0/);
    expect(byName.get('LiveLagHigh')!.expr).toMatch(/^histogram_quantile\(0\.99, .*flow_delivery_lag_seconds_bucket.*\) > 1$/);
    expect(byName.get('PaymentsStuck')!.expr).toContain('payments_pending{age="past_expiry"}');
    expect(byName.get('QueueBacklog')!.expr).toContain('queue_jobs{state="waiting"}');
    expect(byName.get('JobsFailing')!.expr).toContain('queue_jobs{state="failed"}');
    expect(byName.get('DiskFilling')!.expr).toContain('disk_free_bytes / disk_size_bytes');
    // every alert says what it is about
    for (const r of rules) expect((r as Rule & { annotations?: { summary?: string } }).annotations?.summary).toBeTruthy();
  });

  it('Prometheus scrapes the api on its port and the worker on WORKER_METRICS_PORT, with the rules compose mounts', () => {
    const compose = parse(read(root, 'docker-compose.yml')) as {
      services: Record<string, { image?: string; profiles?: string[]; environment?: Record<string, string>; volumes?: string[]; ports?: string[] }>;
      volumes: Record<string, unknown>;
    };
    const { api, worker, prometheus, grafana } = compose.services;
    const prom = parse(read(monitoring, 'prometheus.yml')) as {
      rule_files: string[];
      scrape_configs: Array<{ job_name: string; metrics_path?: string; dns_sd_configs?: Array<{ names: string[]; port: number }> }>;
    };
    const job = (name: string) => prom.scrape_configs.find((c) => c.job_name === name)!;
    expect(job('api').metrics_path).toBe('/metrics');
    expect(job('api').dns_sd_configs).toEqual([expect.objectContaining({ names: ['api'], port: Number(api.environment!.PORT) })]);
    expect(job('worker').dns_sd_configs).toEqual([
      expect.objectContaining({ names: ['worker'], port: Number(worker.environment!.WORKER_METRICS_PORT) }),
    ]);

    // `docker compose --profile monitoring up` starts both; a plain `up` neither
    expect(prometheus.profiles).toEqual(['monitoring']);
    expect(grafana.profiles).toEqual(['monitoring']);
    const mounts = (s: { volumes?: string[] }) => new Map((s.volumes ?? []).map((v) => v.split(':')).map(([from, to]) => [to, from]));
    const p = mounts(prometheus);
    expect(p.get('/etc/prometheus/prometheus.yml')).toBe('./deploy/monitoring/prometheus.yml');
    for (const file of prom.rule_files) expect(existsSync(join(root, p.get(file)!))).toBe(true);
    expect(p.get('/etc/prometheus/alerts.yml')).toBe('./deploy/monitoring/alerts.yml');

    // Grafana: the provisioned data source is the dashboard's, and the dashboards folder is where the provider looks
    const g = mounts(grafana);
    const provisioning = g.get('/etc/grafana/provisioning')!;
    const ds = parse(read(root, provisioning, 'datasources', 'prometheus.yml')) as { datasources: Array<{ uid: string; url: string }> };
    expect(ds.datasources[0].url).toBe('http://prometheus:9090');
    for (const panel of dashboard.panels.filter((x) => x.type !== 'row')) expect(panel.datasource?.uid).toBe(ds.datasources[0].uid);
    const providers = parse(read(root, provisioning, 'dashboards', 'dashboards.yml')) as { providers: Array<{ options: { path: string } }> };
    expect(existsSync(join(root, g.get(providers.providers[0].options.path)!, 'wantuo.json'))).toBe(true);
    expect(Object.keys(compose.volumes)).toEqual(expect.arrayContaining(['prometheus', 'grafana']));
    // only on the host's loopback
    for (const s of [prometheus, grafana]) for (const port of s.ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:/);
  });

  it('nginx does not expose /metrics: it proxies only /api/, /socket.io/, /admin/queues and /uploads/ to the API', () => {
    const conf = read(root, 'apps', 'web', 'nginx', 'default.conf');
    const proxied = [...conf.matchAll(/location\s+(\S+)\s*\{[^}]*proxy_pass/g)].map((m) => m[1]).sort();
    expect(proxied).toEqual(['/admin/queues', '/api/', '/socket.io/', '/uploads/']);
    expect(conf).not.toMatch(/location[^{]*metrics/);
  });
});
