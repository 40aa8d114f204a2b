import type { ReactNode } from "react";
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from "#app/components/ui/accordion.tsx";

export interface FaqEntry {
  id: string;
  question: string;
  /** plain text, also used for the FAQPage structured data */
  answer: string;
  /** optional richer body shown on the page instead of `answer` */
  body?: ReactNode;
}

/** Single-open accordion: opening one question closes the other; the open one can be closed. */
export function FaqAccordion({ items, defaultOpen }: { items: FaqEntry[]; defaultOpen?: string }) {
  return (
    <Accordion type="single" collapsible defaultValue={defaultOpen} className="rounded-2xl border border-slate-200 bg-white px-5 shadow-sm sm:px-6">
      {items.map((item) => (
        <AccordionItem key={item.id} value={item.id} className="last:border-b-0">
          <AccordionTrigger>{item.question}</AccordionTrigger>
          <AccordionContent>{item.body ?? <p>{item.answer}</p>}</AccordionContent>
        </AccordionItem>
      ))}
    </Accordion>
  );
}

/** schema.org FAQPage for a list of questions. */
export function faqJsonLd(items: FaqEntry[]): Record<string, unknown> {
  return {
    "@context": "https://schema.org",
    "@type": "FAQPage",
    mainEntity: items.map((i) => ({
      "@type": "Question",
      name: i.question,
      acceptedAnswer: { "@type": "Answer", text: i.answer },
    })),
  };
}
