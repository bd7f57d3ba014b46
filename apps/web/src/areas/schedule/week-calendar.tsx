import type { EventClickArg, EventInput } from '@fullcalendar/core';
import FullCalendar from '@fullcalendar/react';
import timeGridPlugin from '@fullcalendar/timegrid';
import { Flex, Tag, Typography } from 'antd';
import { DayMarks, KIND_COLOR, wdKey } from './common';
import { scheduleStrings } from './strings';
import { entryTitle, type ViewEntry, type WeekViewProps } from './week-view';

const toMin = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
const hh = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:00:00`;

/**
 * The desktop week grid (FullCalendar's time grid, loaded only with the timetable screens): one column per day,
 * sessions coloured by kind, cancelled ones struck through, holidays shaded, the day headers with their marks.
 */
export default function WeekCalendar({ days, today, onEntry, tappable }: WeekViewProps) {
  const s = scheduleStrings.use();
  const all = days.flatMap((d) => d.entries);
  const minStart = Math.min(14 * 60, ...all.map((e) => toMin(e.start_time)));
  const maxEnd = Math.max(19 * 60, ...all.map((e) => toMin(e.end_time)));
  const slotMin = hh(Math.floor(minStart / 60) * 60);
  const slotMax = hh(Math.min(24 * 60, Math.ceil(maxEnd / 60) * 60 + 60));
  const byDay = new Map(days.map((d) => [d.day, d]));
  const events: EventInput[] = [
    ...days
      .filter((d) => d.calendar?.kind === 'holiday')
      .map((d) => ({ start: `${d.day}T${slotMin}`, end: `${d.day}T${slotMax}`, display: 'background', backgroundColor: '#ffccc7' })),
    ...all.map((e, i) => ({
      id: String(i),
      start: `${e.day}T${e.start_time}:00`,
      end: `${e.day}T${e.end_time}:00`,
      title: entryTitle(e, s),
      backgroundColor: KIND_COLOR[e.kind].bg,
      borderColor: KIND_COLOR[e.kind].border,
      textColor: '#1f1f1f',
      classNames: [e.state === 'cancelled' ? 'schedule-cancelled' : '', tappable?.(e) ? 'schedule-tappable' : ''].filter(Boolean),
      extendedProps: { entry: e },
    })),
  ];
  const click = (arg: EventClickArg) => {
    const e = arg.event.extendedProps.entry as ViewEntry | undefined;
    if (e && tappable?.(e)) onEntry?.(e);
  };
  return (
    <div data-testid="week-calendar">
      <style>{'.schedule-cancelled .fc-event-title{text-decoration:line-through} .schedule-tappable{cursor:pointer}'}</style>
      <FullCalendar
        key={days[0]?.day}
        plugins={[timeGridPlugin]}
        initialView="timeGridWeek"
        initialDate={days[0]?.day}
        firstDay={1}
        headerToolbar={false}
        allDaySlot={false}
        nowIndicator={false}
        height="auto"
        slotMinTime={slotMin}
        slotMaxTime={slotMax}
        slotDuration="00:30:00"
        slotLabelFormat={{ hour: '2-digit', minute: '2-digit', hour12: false }}
        eventTimeFormat={{ hour: '2-digit', minute: '2-digit', hour12: false }}
        events={events}
        eventClick={click}
        eventContent={(arg) => {
          const e = arg.event.extendedProps.entry as ViewEntry | undefined;
          if (!e) return null;
          return (
            <div style={{ overflow: 'hidden', fontSize: 12, lineHeight: 1.3 }} data-testid="schedule-entry">
              <div>
                {e.start_time}-{e.end_time}
              </div>
              <div style={{ fontWeight: 600 }}>{arg.event.title}</div>
              <div>
                {[e.room_name, e.state !== 'planned' ? s(`state.${e.state}`) : null, e.duty === 'head' ? s('kind.head') : null]
                  .filter(Boolean)
                  .join(' · ')}
              </div>
            </div>
          );
        }}
        dayHeaderContent={(arg) => {
          const iso = `${arg.date.getFullYear()}-${String(arg.date.getMonth() + 1).padStart(2, '0')}-${String(arg.date.getDate()).padStart(2, '0')}`;
          const d = byDay.get(iso);
          return (
            <Flex vertical align="center" gap={2} style={{ padding: '2px 0' }}>
              <Typography.Text strong={iso === today}>
                {d ? s(wdKey(d.weekday)) : ''} {iso.slice(5)}
              </Typography.Text>
              {iso === today && (
                <Tag color="gold" style={{ marginInlineEnd: 0 }}>
                  {s('day.today')}
                </Tag>
              )}
              {d && <DayMarks day={d} />}
            </Flex>
          );
        }}
      />
    </div>
  );
}
