'use client';
// A "try it" session: start (or restart) the composed environment with a seed, then send actions
// one at a time — typed text through the text tool, or a tool call with JSON arguments. A step that
// fails ends the session on the server; its cause stays on screen and nothing more is sent.
import { useMutation } from '@tanstack/react-query';
import { useReducer, useState } from 'react';
import type { Action, HarnessSpec } from '../../contracts/spec.ts';
import { useTRPC } from '../trpc/client.tsx';
import type { RouterOutputs } from '../trpc/types.ts';
import { admissibleNow, canStep, initialPlay, parseToolArgs, playReducer } from './play.ts';

type Started = RouterOutputs['play']['start'];
type Stepped = RouterOutputs['play']['step'];

export function usePlaySession(spec: HarnessSpec | undefined) {
  const trpc = useTRPC();
  const [seed, setSeed] = useState(0);
  const [play, dispatch] = useReducer(playReducer<Started, Stepped>, undefined, initialPlay);
  const [text, setText] = useState('');
  const [tool, setTool] = useState('');
  const [args, setArgs] = useState('{}');
  const [argsError, setArgsError] = useState<string | null>(null);
  const start = useMutation(
    trpc.play.start.mutationOptions({
      onSuccess: (s) => {
        dispatch({ type: 'started', session: s });
        setTool(s.tools[0]?.name ?? '');
      },
    }),
  );
  const step = useMutation(
    trpc.play.step.mutationOptions({
      onSuccess: (r) => dispatch({ type: 'stepped', result: r }),
      onError: (e) => dispatch({ type: 'failed', message: e.message }),
    }),
  );
  const { session } = play;
  const send = (action: Action) =>
    session && canStep(play) && step.mutate({ sessionId: session.sessionId, action });
  return {
    ...play,
    seed,
    setSeed,
    start: () => spec && start.mutate({ spec, seed }),
    starting: start.isPending,
    stepping: step.isPending,
    // A failed step shows as the session's failure, not as a passing error.
    error: start.error,
    admissible: admissibleNow(play),
    text,
    setText,
    sendText: (command: string) => {
      const tt = session?.textTool;
      if (!tt || !command.trim()) return;
      send({ name: tt.name, args: { [tt.arg]: command.trim() } });
      setText('');
    },
    tool,
    setTool,
    args,
    setArgs,
    argsError,
    callTool: () => {
      const parsed = parseToolArgs(args);
      setArgsError(parsed.ok ? null : parsed.error);
      if (parsed.ok) send({ name: tool, args: parsed.args });
    },
  };
}

export type PlaySession = ReturnType<typeof usePlaySession>;
