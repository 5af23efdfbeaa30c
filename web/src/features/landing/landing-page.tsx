import { ArrowRight, Car, ChartColumn, ClipboardPen, Database, FileCheck, FileDown, Layers, Lock, PencilLine, Truck, WifiOff, type LucideIcon } from 'lucide-react';
import { ButtonLink } from '@/components/button';
import { signUpLink } from '@/lib/paths';
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

// What the product does beyond the spec's three words, in a UK courier's terms (issue 26).
const strengths: { title: string; detail: string; Icon: LucideIcon }[] = [
  {
    title: 'Couriers and tiered pay',
    detail: 'Every courier you drive for, each with its own rates from a date: per stop in tiers, per parcel, collections, day rates, hourly and peak periods.',
    Icon: Layers,
  },
  {
    title: 'Van hire and deductions',
    detail: 'Van hire, insurance and fees come off your pay, so you see what you really take home, per day, per hour and per stop.',
    Icon: Truck,
  },
  {
    title: 'Statement checks',
    detail: 'Check each pay statement against your own log, period by period, and see a missing day or an extra charge at once.',
    Icon: FileCheck,
  },
  {
    title: 'HMRC mileage and the tax year',
    detail: 'Business miles at HMRC rates, expenses with receipt photos, and your tax year from 6 April: estimated Income Tax and Class 4 NI, and Making Tax Digital quarters.',
    Icon: Car,
  },
  {
    title: 'Works offline',
    detail: 'Log your day with no signal at the depot or in a lift. It is saved on your phone and syncs when you are back online.',
    Icon: WifiOff,
  },
  {
    title: 'Self-hosted and private',
    detail: 'Runs on your own server. No ad networks and no trackers: your pay, miles and receipts stay yours.',
    Icon: Lock,
  },
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
        <ButtonLink to={signUpLink} className={styles.cta}>
          Get Started
          <ArrowRight aria-hidden="true" />
        </ButtonLink>
      </section>

      <Showcase />

      <section className={styles.section} aria-labelledby="strengths-title">
        <h2 id="strengths-title" className={styles.sectionTitle}>
          Built for how couriers are paid
        </h2>
        <ul className={styles.strengths}>
          {strengths.map(({ title, detail, Icon }) => (
            <li key={title} className={styles.strength}>
              <span className={styles.icon}>
                <Icon aria-hidden="true" />
              </span>
              <span className={styles.strengthWords}>
                <h3 className={styles.strengthTitle}>{title}</h3>
                <span className={styles.detail}>{detail}</span>
              </span>
            </li>
          ))}
        </ul>
      </section>

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
