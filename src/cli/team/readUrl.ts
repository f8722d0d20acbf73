// `--url-stdin`: the team URL read from standard input, so its password is never on a
// command line (where other users see it in the process list) or in shell history. From a
// pipe: the first line. From a terminal: asked for without echoing what is typed.

export async function readUrlFromStdin(stdin: NodeJS.ReadStream = process.stdin, prompt: NodeJS.WriteStream = process.stderr): Promise<string> {
  if (stdin.isTTY) return readHidden(stdin, prompt);
  let text = '';
  for await (const chunk of stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/, 1)[0].trim();
}

function readHidden(stdin: NodeJS.ReadStream, prompt: NodeJS.WriteStream): Promise<string> {
  prompt.write('Team URL (not shown): ');
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  let typed = '';
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      prompt.write('\n');
      if (error) reject(error);
      else resolve(typed.trim());
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === '\u0004') return done();
        if (char === '\u0003') return done(new Error('cancelled'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    stdin.on('data', onData);
  });
}
