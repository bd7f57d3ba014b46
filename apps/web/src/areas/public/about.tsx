import { useQuery } from '@tanstack/react-query';
import { Card } from 'antd';
import { get } from '../../api/http';
import { LoadError, Loading } from '../../components/states';
import { useScrollReveal } from '../../lib/scroll-reveal';
import { operatorStrings } from '../operator/strings';
import { queryKey } from '../../api/query';

/** About us: rich text edited by the platform operator, sanitised by the server before it is stored. */
export default function About() {
  const op = operatorStrings.use();
  const q = useQuery({ queryKey: queryKey('aboutUs'), queryFn: () => get('aboutUs') });
  useScrollReveal(q.data);
  if (q.isLoading) return <Loading />;
  if (q.isError) return <LoadError onRetry={() => q.refetch()} />;
  return (
    <Card title={op('operator.about')} data-aos="fade-up">
      {/* the server stores only sanitised HTML (sanitize-html allow-list) */}
      <div className="rich-text" dangerouslySetInnerHTML={{ __html: q.data?.content ?? '' }} />
    </Card>
  );
}
