import { Link } from "react-router";

/** A dashboard tab whose feature the plan lacks: which plan has it (the refusal's words), and the plans page. */
export function PlanUpgrade({ text }: { text: string }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 p-6">
      <p className="font-medium text-slate-900">{text}</p>
      <Link to="/premium" className="mt-2 inline-block text-sm font-medium text-brand-700 underline">
        See the plans
      </Link>
    </div>
  );
}
