import { ArrowRight, ChartColumn, ClipboardPen, Database, FileDown, PencilLine, Truck, type LucideIcon } from 'lucide-react';
import { ButtonLink } from '@/components/button';
import { routes } from '@/lib/paths';
import { Showcase } from './showcase';
import styles from './landing-page.module.css';

// Texts from the spec (§1): the three features and the three usage steps, in its order.
const features: { title: string; Icon: LucideIcon }[] = [
  { title: 'Delivery tracking', Icon: Truck },
  { title: 'Data management', Icon: Database },
  { title: 'Statistics', Icon: ChartColumn },
];

const steps: { title: string; Icon: LucideIcon }[] = [
  { title: 'Enter data', Icon: PencilLine },
  { title: 'View reports', Icon: ClipboardPen },
  { title: 'Export information', Icon: FileDown },
];

export function LandingPage() {
  return (
    <div className={styles.landing}>
      <section className={styles.hero} aria-labelledby="landing-title">
        <h1 id="landing-title" className={styles.title}>
          Delivery Tracker
        </h1>
        <p className={styles.tagline}>Track your delivery stats efficiently</p>
        <p className={styles.intro}>An easy way to track deliveries and manage work.</p>
        <ButtonLink to={routes.login} className={styles.cta}>
          Get Started
          <ArrowRight aria-hidden="true" />
        </ButtonLink>
      </section>

      <Showcase />

      <section className={styles.section} aria-labelledby="features-title">
        <h2 id="features-title" className={styles.sectionTitle}>
          Key Features
        </h2>
        <ul className={styles.grid}>
          {features.map(({ title, Icon }) => (
            <li key={title} className={styles.tile}>
              <span className={styles.icon}>
                <Icon aria-hidden="true" />
              </span>
              <span className={styles.tileTitle}>{title}</span>
            </li>
          ))}
        </ul>
      </section>

      <section className={styles.section} aria-labelledby="usage-title">
        <h2 id="usage-title" className={styles.sectionTitle}>
          Basic Usage
        </h2>
        <ol className={styles.grid}>
          {steps.map(({ title, Icon }, index) => (
            <li key={title} className={styles.tile}>
              <span className={styles.step} aria-hidden="true">
                {index + 1}
              </span>
              <span className={styles.tileTitle}>{title}</span>
              <Icon aria-hidden="true" className={styles.stepIcon} />
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
