-- The payment provider's customer id, so subscription events find their user.
ALTER TABLE users ADD COLUMN billing_customer_id TEXT;
CREATE UNIQUE INDEX users_by_billing_customer ON users (billing_customer_id);
