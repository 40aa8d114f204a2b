/**
 * A field people never see or reach (off-screen, hidden from assistive technology, out of the
 * tab order) that form-filling bots complete. The server stores nothing when it is filled.
 */
export function HoneypotField() {
  return (
    <div aria-hidden="true" className="pointer-events-none absolute -left-[10000px] h-px w-px overflow-hidden">
      <label>
        Website (leave this empty)
        <input type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}
