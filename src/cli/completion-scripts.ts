// The scripts `mailctl completion bash|zsh|fish` prints. Each asks `mailctl __complete` for the
// candidates of the word under the cursor, so the scripts never need updating when a command
// or flag is added.

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Where each script goes: the scripts' own comments, \`completion --help\` and docs/configuration.md say the same (test/completion.test.ts). */
export const INSTALL: Record<Shell, string> = {
  bash: 'mailctl completion bash > ~/.local/share/bash-completion/completions/mailctl',
  zsh: 'mailctl completion zsh > ~/.zfunc/_mailctl',
  fish: 'mailctl completion fish > ~/.config/fish/completions/mailctl.fish',
};

/** zsh finds the script only in a folder on fpath. */
export const ZSH_FPATH = 'fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc';

export const SCRIPTS: Record<Shell, string> = {
  bash: `# mailctl completion for bash. Install: ${INSTALL.bash}
_mailctl() {
  local cur=\${COMP_WORDS[COMP_CWORD]} c q
  COMPREPLY=()
  # One candidate a line (read line by line: never split or globbed here), each put in as one
  # word: after an opening ' or " escaped for inside those quotes (readline adds the closing one),
  # else as is when it holds nothing a shell would split or expand, else escaped (My\\ Group).
  while IFS= read -r c; do
    if [[ $cur == \\'* ]]; then q=\${c//\\'/\\'\\\\\\'\\'}
    elif [[ $cur == \\"* ]]; then q=\${c//\\\\/\\\\\\\\}; q=\${q//\\"/\\\\\\"}; q=\${q//\\$/\\\\\\$}; q=\${q//\\\`/\\\\\\\`}
    elif [[ $c == *[!A-Za-z0-9_@%+=:,./-]* ]]; then printf -v q '%q' "$c"
    else q=$c; fi
    COMPREPLY+=("$q")
  done < <(mailctl __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
}
complete -o default -F _mailctl mailctl
`,
  zsh: `#compdef mailctl
# mailctl completion for zsh. Install: ${INSTALL.zsh} (with ${ZSH_FPATH}), then restart zsh
_mailctl() {
  local -a candidates
  candidates=("\${(@f)$(mailctl __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  compadd -a candidates
}
if [ "$funcstack[1]" = "_mailctl" ]; then _mailctl "$@"; else compdef _mailctl mailctl; fi
`,
  fish: `# mailctl completion for fish. Install: ${INSTALL.fish}
function __mailctl_complete
    set -l tokens (commandline -opc) (commandline -ct)
    mailctl __complete -- $tokens[2..-1] 2>/dev/null
end
complete -c mailctl -f -a '(__mailctl_complete)'
`,
};
