import { Clock } from 'lucide-react';
import { Card } from '@/components/card';
import { Page } from '@/components/page';
import styles from './contact-page.module.css';

export function ContactPage() {
  return (
    <Page title="Contact Us" intro={<p>Questions, problems or ideas: we are glad to hear from you.</p>}>
      <Card className={styles.hours} aria-labelledby="support-hours">
        <Clock aria-hidden="true" className={styles.icon} />
        <div>
          <h2 id="support-hours" className={styles.title}>
            Support hours
          </h2>
          <p>Monday-Friday, 9:00 AM to 5:00 PM BST</p>
          <p className={styles.muted}>We reply in about 24 hours.</p>
        </div>
      </Card>
    </Page>
  );
}
