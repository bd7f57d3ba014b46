import { Button, Carousel, Col, Row, Typography } from 'antd';
import { Link } from 'react-router';
import { HOME_OF } from '../../router/route-table';
import { usePageConfig } from '../../stores/page-config';
import { useT } from '../../stores/preferences';
import { useSession } from '../../stores/session';
import { useScrollReveal } from '../../lib/scroll-reveal';

/** The public home: the operator's banners, what the product does, a way in. */
export default function Home() {
  const t = useT();
  const config = usePageConfig((s) => s.config);
  const user = useSession((s) => s.user);
  useScrollReveal(config);
  return (
    <div>
      {config?.banners.length ? (
        <Carousel autoplay style={{ marginBottom: 32 }}>
          {config.banners.map((b) => (
            <a key={b.image} href={b.link ?? undefined}>
              <img src={b.image} alt={b.title} style={{ width: '100%', maxHeight: 360, objectFit: 'cover' }} />
            </a>
          ))}
        </Carousel>
      ) : null}
      <section style={{ padding: '48px 0', textAlign: 'center' }} data-aos="fade-up">
        <Typography.Title>{t('home.hero')}</Typography.Title>
        <Typography.Paragraph type="secondary" style={{ fontSize: 16, maxWidth: 720, margin: '0 auto 24px' }}>
          {t('home.lead')}
        </Typography.Paragraph>
        <Link to={user ? HOME_OF[user.role] : '/login'}>
          <Button type="primary" size="large">
            {user ? t('nav.console') : t('nav.login')}
          </Button>
        </Link>
      </section>
      <Row gutter={[24, 24]}>
        {(['home.f1', 'home.f2', 'home.f3'] as const).map((k, i) => (
          <Col xs={24} md={8} key={k} data-aos="fade-up" data-aos-delay={i * 100}>
            <div style={{ padding: 24, border: '1px solid #f0f0f0', borderRadius: 8, height: '100%' }}>
              <Typography.Text strong>{t(k)}</Typography.Text>
            </div>
          </Col>
        ))}
      </Row>
    </div>
  );
}
