# bash completion for agentcron's programs.  Installed once and linked
# under each program's name in bash-completion's completions directory,
# which loads it the first time one of them is completed.  Options come
# from each program's own --help, so they never fall behind it; values are
# offered where they are a known set (statuses, kinds, zones, task ids).

_agentcron_options()
{
	local cmd=$1 var
	var=_agentcron_opts_${cmd//-/_}
	if [[ -z ${!var-} ]]; then
		printf -v "$var" '%s' "$("$cmd" --help 2>/dev/null |
			grep -oE -- '(^|[ ,[|])--?[a-zA-Z][a-zA-Z-]*' | sed 's/^[ ,[|]//' | sort -u |
			tr '\n' ' ')"
	fi
	printf '%s\n' "${!var}"
}

# Task ids (and names) of the store, for the arguments that name a task.
_agentcron_ids()
{
	task-ls --limit 500 2>/dev/null | cut -f1
}

_agentcron_zones()
{
	local dir=/usr/share/zoneinfo
	[[ -d $dir ]] || return
	(cd "$dir" && find . -type f ! -name '*.*' ! -path './posix/*' ! -path './right/*' \
		-printf '%P\n' 2>/dev/null)
}

_agentcron_complete()
{
	local cmd=${COMP_WORDS[0]##*/} cur=${COMP_WORDS[COMP_CWORD]}
	local prev=${COMP_WORDS[COMP_CWORD-1]} words
	COMPREPLY=()
	case $prev in
	-s | --status)
		case $cmd in
		task-log) words='running success failed timeout interrupted skipped unstarted missed cancelled blocked' ;;
		*) words='pending running completed failed cancelled' ;;
		esac ;;
	-k | --kind) [[ $cmd == task-ls ]] && words='cron every at plan manual heartbeat' ;;
	--missed) words='once skip all' ;;
	--after) words=$(_agentcron_ids) ;;
	--notify-on | --deliver-on) words='failure recovery change success always never' ;;
	--deliver) words="none webhook: slack: ntfy: telegram: mailto: exec: $(sed -n \
		's/^[[:space:]]*deliver\.\([A-Za-z0-9_.-]*\)[[:space:]]*=.*/@\1/p' \
		"${XDG_CONFIG_HOME:-$HOME/.config}/agentcron/config" 2>/dev/null)" ;;
	--by) [[ $cmd == task-log ]] && words='task model day' ;;
	--budget) words='none' ;;
	--fallback-model) words=$(sed -n \
		's/^[[:space:]]*\(price\|fallback\)\.\([^[:space:]=]*\)[[:space:]]*=.*/\2/p' \
		"${XDG_CONFIG_HOME:-$HOME/.config}/agentcron/config" 2>/dev/null | sort -u) ;;
	--keep) words='forever default 30d 90d 1000' ;;
	--provider) words='openai anthropic echo' ;;
	-p | --profile) [[ $cmd == task-mcp ]] && words='native oneclaw agent-zero kai toolpack wooster all' ;;
	-z | --tz)
		mapfile -t COMPREPLY < <(compgen -W "$(_agentcron_zones)" -- "$cur")
		return ;;
	-t | --task | -r | --run)
		if [[ ($cmd == task-log || $cmd == task-status) && ($prev == -t || $prev == --task) ]]; then
			mapfile -t COMPREPLY < <(compgen -W "$(_agentcron_ids)" -- "$cur")
			return
		fi ;;
	--gate)
		mapfile -t COMPREPLY < <(compgen -c -- "$cur")
		return ;;
	-A | --attach | -a | --key-file)
		if [[ $prev != -a || $cmd == llm-call ]]; then
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			return
		fi ;;
	esac
	if [[ -n ${words-} ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
		return
	fi
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_agentcron_options "$cmd")" -- "$cur")
		return
	fi
	case $cmd in
	task-show | task-edit | task-rm | task-run)
		mapfile -t COMPREPLY < <(compgen -W "$(_agentcron_ids)" -- "$cur") ;;
	task-when)
		# --cost takes a task as well as a schedule; --id takes a task.
		if [[ $prev == --id || " ${COMP_WORDS[*]} " == *" --cost "* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "$(_agentcron_ids)" -- "$cur")
		fi ;;
	esac
}

complete -F _agentcron_complete llm-call task-add task-deliver task-edit task-log task-ls \
	task-mcp task-rm task-run task-show task-status task-tick task-web task-when
