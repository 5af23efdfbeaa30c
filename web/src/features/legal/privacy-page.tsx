import { Link } from 'react-router';
import { Page } from '@/components/page';
import { Prose } from '@/components/prose';
import { infoRoutes } from '@/lib/paths';

export function PrivacyPage({ inApp = false }: { inApp?: boolean }) {
  return (
    <Page title="Privacy Policy" intro={<p>Last updated: March 21, 2025</p>}>
      <Prose>
        <section>
          <h2>What we store</h2>
          <ul>
            <li>Your account: email address, display name, profile picture and bio.</li>
            <li>The delivery logs you enter: dates, stops, extra pay and notes.</li>
            <li>Your payment settings and app preferences.</li>
          </ul>
        </section>
        <section>
          <h2>Where it is kept</h2>
          <p>
            On the server that runs this Delivery Tracker installation, and on your device so that the app keeps working
            without a signal. Changes made offline are sent to the server when you are back online.
          </p>
        </section>
        <section>
          <h2>Cookies and tracking</h2>
          <p>One cookie keeps you signed in. There are no advertising cookies and no third-party trackers.</p>
        </section>
        <section>
          <h2>Children</h2>
          <p>Delivery Tracker is not intended for children under 16.</p>
        </section>
        <section>
          <h2>Questions</h2>
          <p>
            If you have a question about your data, please <Link to={infoRoutes(inApp).contact}>contact us</Link>.
          </p>
        </section>
      </Prose>
    </Page>
  );
}
