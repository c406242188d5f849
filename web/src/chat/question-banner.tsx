import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { QuestionItem } from '../../../src/events/session-view.js';
import { formatDuration } from './format.js';
import { Markdown } from './markdown.js';
import { useNow } from './use-now.js';

/** The agent's open question: it flashes softly, its answer field has the focus; sending resumes the run. */
export function QuestionBanner({
  question,
  onAnswer,
}: {
  question: QuestionItem;
  onAnswer: (content: string) => void;
}) {
  const [answer, setAnswer] = useState('');
  const [sent, setSent] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  const now = useNow(1000);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new question takes the focus again
  useEffect(() => {
    setSent(false);
    setAnswer('');
    field.current?.focus();
  }, [question.requestId]);
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (answer.trim() === '' || sent) return;
    setSent(true);
    onAnswer(answer.trim());
  };
  return (
    <section className="banner question flash" role="alert" aria-label="The agent asks">
      <div className="banner-title">
        The agent asks{question.taskId ? ` (task ${question.taskId})` : ''}:
        <span className="muted small"> waiting {formatDuration(now - question.askedAt)}</span>
      </div>
      <Markdown text={question.question} />
      <form onSubmit={submit} className="answer-form">
        <textarea
          ref={field}
          aria-label="Your answer"
          rows={2}
          value={answer}
          onChange={(event) => setAnswer(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey) {
              event.preventDefault();
              submit();
            }
          }}
        />
        <button type="submit" disabled={sent || answer.trim() === ''}>
          {sent ? 'Sent' : 'Answer'}
        </button>
      </form>
    </section>
  );
}
