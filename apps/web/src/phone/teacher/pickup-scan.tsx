import { useQuery } from '@tanstack/react-query';
import { parsePickupCode, type FlowBoard } from '@wantuo/shared';
import { useCallback } from 'react';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import type { ScanStudent } from '../../areas/pickup/use-pickup-scan';
import { useQueuedPickups } from '../../areas/pickup/use-queued-pickups';
import { PhonePage, QueryView } from '../ui/page';
import { ScanPanel } from './scan';
import { teacherPhoneStrings } from './strings';
import './teacher.css';

/** The children a code collects here: those of its children on the caller's list today who are in the centre. */
export function leavingWith(code: string, board: FlowBoard | undefined): ScanStudent[] {
  const inCode = new Set(parsePickupCode(code)?.payload.students ?? []);
  return (board?.students ?? []).filter((s) => inCode.has(s.id) && s.state === 'in_centre').map((s) => ({ id: s.id, name: s.name }));
}

/**
 * 扫码放学 on the teacher's phone: a parent or pick-up person shows their code, the teacher scans it (WeChat's scanner
 * inside WeChat, else the camera, or a photo), the code is checked on the phone (offline too) and the children it
 * collects who are in the centre leave together (the teacher may leave some out). Verified offline, the departure
 * waits and goes out when the network is back.
 */
export default function TeacherPickupScan() {
  const tp = teacherPhoneStrings.use();
  const board = useQuery({ queryKey: queryKey('flowBoard'), queryFn: () => get('flowBoard'), refetchInterval: 30_000 });
  const { refetch } = board;
  const reload = useCallback(() => void refetch(), [refetch]);
  useQueuedPickups(reload);
  return (
    <PhonePage onRefresh={() => board.refetch()}>
      <QueryView query={board} rows={3}>
        {(d) => (
          <div className="m-section m-pad" data-testid="pickup-scan-page">
            <div className="m-state-desc" style={{ margin: '0 0 4px' }}>
              {tp('tp.scan_entry_hint')}
            </div>
            <ScanPanel studentsFor={(code) => leavingWith(code, d)} noneMessage={tp('tp.scan_none_here')} onDone={reload} choose />
          </div>
        )}
      </QueryView>
    </PhonePage>
  );
}
