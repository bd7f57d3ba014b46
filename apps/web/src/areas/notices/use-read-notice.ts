import { useQuery, useQueryClient } from '@tanstack/react-query';
import { post } from '../../api/http';

/**
 * A notice opened to be read (readInform: its content, and the reader's receipt written): once per opening, then the
 * lists are refreshed so they show it read. No antd: the consoles' dialog and the phone's page share it.
 */
export function useReadNotice(id: number) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: ['notices', 'read', id],
    queryFn: async () => {
      const n = await post('readInform', { id });
      void qc.invalidateQueries({ queryKey: ['notices'], predicate: (x) => x.queryKey[1] !== 'read' });
      return n;
    },
    staleTime: Infinity,
  });
}
