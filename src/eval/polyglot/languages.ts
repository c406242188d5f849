/**
 * How the polyglot benchmark's languages are built and tested, as Aider's benchmark does it: the
 * programs a language needs on the machine, an install step (with network) where the exercise
 * brings its own dependencies, the test command, and how skipped tests are switched on.
 */
export interface PolyglotLanguage {
  /** The folder name under the benchmark's root (`python`, `cpp`…). */
  name: string;
  /** Programs that must be on the PATH; the first one missing is the reason the language is skipped. */
  programs: readonly string[];
  /**
   * A command that must succeed for the toolchain to work, not only be on the PATH: rustup's
   * `cargo` with no default toolchain is there and fails every build.
   */
  probe?: readonly string[];
  /** A Python module the test command imports (`pytest`), checked with `python3 -c "import …"`. */
  pythonModule?: string;
  /** Run once in a fresh workspace before the agent, with network, when `installWhen` exists there. */
  install?: { command: string; installWhen: string };
  /** The test command, run in the workspace with no network: exit code 0 is a pass. */
  test: string;
  /** Switches on the tests an exercise ships switched off (Exercism skips all but the first). */
  unskip?: (text: string) => string;
}

/** The languages of the benchmark (Aider's polyglot: C++, Go, Java, JavaScript, Python, Rust). */
export const POLYGLOT_LANGUAGES: readonly PolyglotLanguage[] = [
  {
    name: 'cpp',
    programs: ['cmake', 'make', 'c++'],
    probe: ['c++', '--version'],
    test: 'mkdir -p build && cd build && cmake -DEXERCISM_RUN_ALL_TESTS=1 -G "Unix Makefiles" .. && make',
  },
  { name: 'go', programs: ['go'], probe: ['go', 'version'], test: 'go test ./...' },
  {
    name: 'java',
    // The exercises' gradlew downloads Gradle itself: without network only an installed Gradle runs.
    programs: ['java', 'gradle'],
    probe: ['java', '-version'],
    test: 'gradle test --offline --console=plain',
    unskip: (text) => text.replace(/^\s*@Disabled\([^)]*\)\s*$\n?/gm, ''),
  },
  {
    name: 'javascript',
    programs: ['node', 'npm'],
    install: { command: 'npm install --no-audit --no-fund --loglevel=error', installWhen: 'package.json' },
    test: 'npm test',
    unskip: (text) => text.replace(/\bxtest\(/g, 'test(').replace(/\bxit\(/g, 'it('),
  },
  { name: 'python', programs: ['python3'], pythonModule: 'pytest', test: 'python3 -m pytest -q' },
  {
    name: 'rust',
    programs: ['cargo'],
    probe: ['cargo', '--version'],
    test: 'cargo test -- --include-ignored',
  },
];

/** The language of this name, or undefined when taskweave has no test command for it. */
export function polyglotLanguage(name: string): PolyglotLanguage | undefined {
  return POLYGLOT_LANGUAGES.find((language) => language.name === name);
}
