// Scaffold from the lead: mileage13 replaces this with vehicles, the log and its form.
export function MileageView() {
  return <h2>Mileage</h2>;
}
