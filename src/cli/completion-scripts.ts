// The scripts `mailctl completion bash|zsh|fish` prints. Each asks `mailctl __complete` for the
// candidates of the word under the cursor, so the scripts never need updating when a command
// or flag is added.

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export const SCRIPTS: Record<Shell, string> = {
  bash: `# mailctl completion for bash. Install: mailctl completion bash > ~/.local/share/bash-completion/completions/mailctl
_mailctl() {
  local IFS=$'\\n'
  COMPREPLY=( $(mailctl __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) )
}
complete -o default -F _mailctl mailctl
`,
  zsh: `#compdef mailctl
# mailctl completion for zsh. Install: mailctl completion zsh > "\${fpath[1]}/_mailctl" (then restart zsh)
_mailctl() {
  local -a candidates
  candidates=("\${(@f)$(mailctl __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  compadd -a candidates
}
if [ "$funcstack[1]" = "_mailctl" ]; then _mailctl "$@"; else compdef _mailctl mailctl; fi
`,
  fish: `# mailctl completion for fish. Install: mailctl completion fish > ~/.config/fish/completions/mailctl.fish
function __mailctl_complete
    set -l tokens (commandline -opc) (commandline -ct)
    mailctl __complete -- $tokens[2..-1] 2>/dev/null
end
complete -c mailctl -f -a '(__mailctl_complete)'
`,
};
