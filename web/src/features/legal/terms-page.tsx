import { Link } from 'react-router';
import { Page } from '@/components/page';
import { Prose } from '@/components/prose';
import { infoRoutes } from '@/lib/paths';

export function TermsPage({ inApp = false }: { inApp?: boolean }) {
  return (
    <Page title="Terms of Service" intro={<p>Last updated: March 22, 2025</p>}>
      <Prose>
        <section>
          <h2>Using Delivery Tracker</h2>
          <p>
            Delivery Tracker helps you record your deliveries and estimate your earnings. The figures it shows are
            estimates for your own records; your pay statements remain the reference.
          </p>
        </section>
        <section>
          <h2>Your account</h2>
          <p>Keep your password safe. You are responsible for the information you enter.</p>
        </section>
        <section>
          <h2>Plans</h2>
          <p>Two plans exist: Free, and Pro at £4.99 per month.</p>
        </section>
        <section>
          <h2>Governing law</h2>
          <p>These terms are governed by the laws of the United Kingdom.</p>
        </section>
        <section>
          <h2>Questions</h2>
          <p>
            If you have a question about these terms, please <Link to={infoRoutes(inApp).contact}>contact us</Link>.
          </p>
        </section>
      </Prose>
    </Page>
  );
}
