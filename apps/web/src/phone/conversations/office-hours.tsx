import Button from 'antd-mobile/es/components/button';
import List from 'antd-mobile/es/components/list';
import Selector from 'antd-mobile/es/components/selector';
import Tag from 'antd-mobile/es/components/tag';
import type { OfficeHoursInfo } from '@wantuo/shared';
import { feedback } from '../../api/feedback';
import { useOfficeHours, useOfficeHoursDraft } from '../../areas/conversations/model';
import { conversationsStrings, WEEKDAY_LABELS } from '../../areas/conversations/strings';
import { pick } from '../../i18n/messages';
import { usePreferences } from '../../stores/preferences';
import { QueryView } from '../ui/page';
import './chat.css';

/**
 * 设置 → 办公时间 (a teacher's or head teacher's): the weekdays (一 … 日) and the daily window of their office hours,
 * whether they are within them now; outside them they are not told of family messages.
 */
export function OfficeHoursSection() {
  const s = conversationsStrings.use();
  const { info, save } = useOfficeHours();
  return (
    <List className="m-section" header={s('office.title')} data-testid="office-hours">
      <QueryView query={info} rows={2}>
        {(d) => <OfficeHoursForm key={`${d.days.join()}-${d.start}-${d.end}`} data={d} save={save} />}
      </QueryView>
    </List>
  );
}

function OfficeHoursForm({ data, save }: { data: OfficeHoursInfo; save: ReturnType<typeof useOfficeHours>['save'] }) {
  const s = conversationsStrings.use();
  const lang = usePreferences((p) => p.lang);
  const { days, setDays, start, setStart, end, setEnd, draft, problem, changed } = useOfficeHoursDraft(data);
  return (
    <>
      <List.Item>
        <div className="cv-line">
          <Tag color={data.open_now ? 'success' : 'default'} fill="outline" data-testid="office-now">
            {data.open_now ? s('office.open_now') : s('office.closed_now')}
          </Tag>
          {data.is_default && <span className="cv-muted">{s('office.default')}</span>}
        </div>
        <div className="cv-office-hint">{s('office.hint')}</div>
      </List.Item>
      <List.Item title={s('office.days')}>
        <Selector<number>
          className="m-choice"
          columns={7}
          multiple
          value={days}
          onChange={setDays}
          options={[1, 2, 3, 4, 5, 6, 7].map((d) => ({ value: d, label: pick(lang, WEEKDAY_LABELS[d]) }))}
          data-testid="office-days"
        />
      </List.Item>
      <List.Item>
        <div className="cv-line">
          <label className="cv-line">
            {s('office.start')}
            <input type="time" className="cv-time" value={start} onChange={(e) => setStart(e.target.value)} data-testid="office-start" />
          </label>
          <label className="cv-line">
            {s('office.end')}
            <input type="time" className="cv-time" value={end} onChange={(e) => setEnd(e.target.value)} data-testid="office-end" />
          </label>
        </div>
        {problem && (
          <div className="cv-office-hint" role="alert" style={{ color: '#cf1322' }}>
            {problem}
          </div>
        )}
      </List.Item>
      <List.Item>
        <Button
          block
          color="primary"
          disabled={!!problem || !changed}
          loading={save.isPending}
          onClick={() => save.mutate(draft, { onSuccess: () => feedback().message.success(s('office.saved')) })}
          data-testid="office-save"
        >
          {s('office.save')}
        </Button>
      </List.Item>
    </>
  );
}
