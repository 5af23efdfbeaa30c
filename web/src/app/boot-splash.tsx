/**
 * The brand and tagline that index.html paints before any JS runs (styled there, in its
 * inline <style>). The router shows the same while the first page's code loads, so the
 * screen does not blink between the two.
 */
export function BootSplash() {
  return (
    <div className="boot">
      <p className="boot-title">Delivery Tracker</p>
      <p className="boot-tagline">Track your delivery stats efficiently</p>
    </div>
  );
}
