// The HUD's own words in each shipped language: what it shows by itself (run's Cancel and end
// notices, Plymouth's mode labels and boot status). One switch per language over `Word`, so a
// language without a word does not build; a test checks each keeps the word's parameters.
// The CJK texts are in fonts-wqy-microhei (the fallback font the package depends on).

extension Word {
    /// The shipped text of this word in `language`, with its parameters as `{name}`.
    public func text(_ language: Language) -> String {
        switch language {
        case .en: english
        case .de: german
        case .fr: french
        case .es: spanish
        case .it: italian
        case .nl: dutch
        case .pl: polish
        case .pt: portuguese
        case .ja: japanese
        case .zh: chinese
        }
    }

    var english: String {
        switch self {
        case .cancel: "Cancel"
        case .confirmCancel: "Tap again to cancel"
        case .cancelling: "Cancelling…"
        case .cancelled: "Cancelled"
        case .done: "Done"
        case .failedStatus: "Failed (exit status {status})"
        case .failedSignal: "Failed (killed by {signal})"
        case .cannotRun: "Cannot run {command}: {reason}"
        case .startingUnit: "Starting {unit}…"
        case .bootUp: "Starting…"
        case .shutdown: "Shutting down…"
        case .reboot: "Restarting…"
        case .updates: "Installing updates…"
        case .systemUpgrade: "Upgrading the system…"
        case .firmwareUpgrade: "Updating firmware…"
        case .installed: "Installed"
        case .updateFailed: "Update failed: {reason}"
        case .updateInterrupted: "Update interrupted"
        case .updaterStopped: "The update service has stopped; waiting for it…"
        case .updateStep: "Step {step} of {steps}"
        }
    }

    var german: String {
        switch self {
        case .cancel: "Abbrechen"
        case .confirmCancel: "Zum Abbrechen erneut tippen"
        case .cancelling: "Wird abgebrochen…"
        case .cancelled: "Abgebrochen"
        case .done: "Fertig"
        case .failedStatus: "Fehlgeschlagen (Exit-Status {status})"
        case .failedSignal: "Fehlgeschlagen (beendet durch {signal})"
        case .cannotRun: "{command} kann nicht ausgeführt werden: {reason}"
        case .startingUnit: "{unit} wird gestartet…"
        case .bootUp: "Wird gestartet…"
        case .shutdown: "Wird heruntergefahren…"
        case .reboot: "Wird neu gestartet…"
        case .updates: "Updates werden installiert…"
        case .systemUpgrade: "System wird aktualisiert…"
        case .firmwareUpgrade: "Firmware wird aktualisiert…"
        case .installed: "Installiert"
        case .updateFailed: "Update fehlgeschlagen: {reason}"
        case .updateInterrupted: "Update unterbrochen"
        case .updaterStopped: "Der Update-Dienst wurde beendet; warte auf ihn…"
        case .updateStep: "Schritt {step} von {steps}"
        }
    }

    var french: String {
        switch self {
        case .cancel: "Annuler"
        case .confirmCancel: "Touchez à nouveau pour annuler"
        case .cancelling: "Annulation…"
        case .cancelled: "Annulé"
        case .done: "Terminé"
        case .failedStatus: "Échec (code de sortie {status})"
        case .failedSignal: "Échec (arrêté par {signal})"
        case .cannotRun: "Impossible d’exécuter {command} : {reason}"
        case .startingUnit: "Démarrage de {unit}…"
        case .bootUp: "Démarrage…"
        case .shutdown: "Arrêt en cours…"
        case .reboot: "Redémarrage…"
        case .updates: "Installation des mises à jour…"
        case .systemUpgrade: "Mise à niveau du système…"
        case .firmwareUpgrade: "Mise à jour du micrologiciel…"
        case .installed: "Installé"
        case .updateFailed: "Échec de la mise à jour : {reason}"
        case .updateInterrupted: "Mise à jour interrompue"
        case .updaterStopped: "Le service de mise à jour s’est arrêté ; en attente…"
        case .updateStep: "Étape {step} sur {steps}"
        }
    }

    var spanish: String {
        switch self {
        case .cancel: "Cancelar"
        case .confirmCancel: "Toque de nuevo para cancelar"
        case .cancelling: "Cancelando…"
        case .cancelled: "Cancelado"
        case .done: "Listo"
        case .failedStatus: "Error (código de salida {status})"
        case .failedSignal: "Error (terminado por {signal})"
        case .cannotRun: "No se puede ejecutar {command}: {reason}"
        case .startingUnit: "Iniciando {unit}…"
        case .bootUp: "Iniciando…"
        case .shutdown: "Apagando…"
        case .reboot: "Reiniciando…"
        case .updates: "Instalando actualizaciones…"
        case .systemUpgrade: "Actualizando el sistema…"
        case .firmwareUpgrade: "Actualizando el firmware…"
        case .installed: "Instalado"
        case .updateFailed: "La actualización falló: {reason}"
        case .updateInterrupted: "Actualización interrumpida"
        case .updaterStopped: "El servicio de actualización se ha detenido; esperándolo…"
        case .updateStep: "Paso {step} de {steps}"
        }
    }

    var italian: String {
        switch self {
        case .cancel: "Annulla"
        case .confirmCancel: "Tocca di nuovo per annullare"
        case .cancelling: "Annullamento…"
        case .cancelled: "Annullato"
        case .done: "Fatto"
        case .failedStatus: "Non riuscito (codice di uscita {status})"
        case .failedSignal: "Non riuscito (terminato da {signal})"
        case .cannotRun: "Impossibile eseguire {command}: {reason}"
        case .startingUnit: "Avvio di {unit}…"
        case .bootUp: "Avvio…"
        case .shutdown: "Spegnimento…"
        case .reboot: "Riavvio…"
        case .updates: "Installazione degli aggiornamenti…"
        case .systemUpgrade: "Aggiornamento del sistema…"
        case .firmwareUpgrade: "Aggiornamento del firmware…"
        case .installed: "Installato"
        case .updateFailed: "Aggiornamento non riuscito: {reason}"
        case .updateInterrupted: "Aggiornamento interrotto"
        case .updaterStopped: "Il servizio di aggiornamento si è fermato; in attesa…"
        case .updateStep: "Passo {step} di {steps}"
        }
    }

    var dutch: String {
        switch self {
        case .cancel: "Annuleren"
        case .confirmCancel: "Tik nogmaals om te annuleren"
        case .cancelling: "Bezig met annuleren…"
        case .cancelled: "Geannuleerd"
        case .done: "Klaar"
        case .failedStatus: "Mislukt (afsluitstatus {status})"
        case .failedSignal: "Mislukt (beëindigd door {signal})"
        case .cannotRun: "Kan {command} niet uitvoeren: {reason}"
        case .startingUnit: "{unit} wordt gestart…"
        case .bootUp: "Opstarten…"
        case .shutdown: "Afsluiten…"
        case .reboot: "Herstarten…"
        case .updates: "Updates installeren…"
        case .systemUpgrade: "Systeem bijwerken…"
        case .firmwareUpgrade: "Firmware bijwerken…"
        case .installed: "Geïnstalleerd"
        case .updateFailed: "Update mislukt: {reason}"
        case .updateInterrupted: "Update onderbroken"
        case .updaterStopped: "De updatedienst is gestopt; wachten…"
        case .updateStep: "Stap {step} van {steps}"
        }
    }

    var polish: String {
        switch self {
        case .cancel: "Anuluj"
        case .confirmCancel: "Dotknij ponownie, aby anulować"
        case .cancelling: "Anulowanie…"
        case .cancelled: "Anulowano"
        case .done: "Gotowe"
        case .failedStatus: "Niepowodzenie (kod wyjścia {status})"
        case .failedSignal: "Niepowodzenie (zakończono sygnałem {signal})"
        case .cannotRun: "Nie można uruchomić {command}: {reason}"
        case .startingUnit: "Uruchamianie {unit}…"
        case .bootUp: "Uruchamianie…"
        case .shutdown: "Wyłączanie…"
        case .reboot: "Ponowne uruchamianie…"
        case .updates: "Instalowanie aktualizacji…"
        case .systemUpgrade: "Aktualizowanie systemu…"
        case .firmwareUpgrade: "Aktualizowanie oprogramowania układowego…"
        case .installed: "Zainstalowano"
        case .updateFailed: "Aktualizacja nie powiodła się: {reason}"
        case .updateInterrupted: "Aktualizacja przerwana"
        case .updaterStopped: "Usługa aktualizacji zatrzymała się; oczekiwanie…"
        case .updateStep: "Krok {step} z {steps}"
        }
    }

    var portuguese: String {
        switch self {
        case .cancel: "Cancelar"
        case .confirmCancel: "Toque novamente para cancelar"
        case .cancelling: "Cancelando…"
        case .cancelled: "Cancelado"
        case .done: "Concluído"
        case .failedStatus: "Falhou (código de saída {status})"
        case .failedSignal: "Falhou (encerrado por {signal})"
        case .cannotRun: "Não é possível executar {command}: {reason}"
        case .startingUnit: "Iniciando {unit}…"
        case .bootUp: "Iniciando…"
        case .shutdown: "Desligando…"
        case .reboot: "Reiniciando…"
        case .updates: "Instalando atualizações…"
        case .systemUpgrade: "Atualizando o sistema…"
        case .firmwareUpgrade: "Atualizando o firmware…"
        case .installed: "Instalado"
        case .updateFailed: "A atualização falhou: {reason}"
        case .updateInterrupted: "Atualização interrompida"
        case .updaterStopped: "O serviço de atualização parou; aguardando…"
        case .updateStep: "Etapa {step} de {steps}"
        }
    }

    var japanese: String {
        switch self {
        case .cancel: "キャンセル"
        case .confirmCancel: "もう一度タップするとキャンセルします"
        case .cancelling: "キャンセルしています…"
        case .cancelled: "キャンセルしました"
        case .done: "完了"
        case .failedStatus: "失敗しました（終了ステータス {status}）"
        case .failedSignal: "失敗しました（{signal} により終了）"
        case .cannotRun: "{command} を実行できません: {reason}"
        case .startingUnit: "{unit} を起動しています…"
        case .bootUp: "起動しています…"
        case .shutdown: "シャットダウンしています…"
        case .reboot: "再起動しています…"
        case .updates: "アップデートをインストールしています…"
        case .systemUpgrade: "システムをアップグレードしています…"
        case .firmwareUpgrade: "ファームウェアを更新しています…"
        case .installed: "インストールしました"
        case .updateFailed: "更新に失敗しました: {reason}"
        case .updateInterrupted: "更新が中断されました"
        case .updaterStopped: "更新サービスが停止しました。再開を待っています…"
        case .updateStep: "ステップ {step}/{steps}"
        }
    }

    /// Simplified Chinese (zh_TW and zh_HK systems get it too).
    var chinese: String {
        switch self {
        case .cancel: "取消"
        case .confirmCancel: "再次轻触以取消"
        case .cancelling: "正在取消…"
        case .cancelled: "已取消"
        case .done: "完成"
        case .failedStatus: "失败（退出状态 {status}）"
        case .failedSignal: "失败（被 {signal} 终止）"
        case .cannotRun: "无法运行 {command}：{reason}"
        case .startingUnit: "正在启动 {unit}…"
        case .bootUp: "正在启动…"
        case .shutdown: "正在关机…"
        case .reboot: "正在重新启动…"
        case .updates: "正在安装更新…"
        case .systemUpgrade: "正在升级系统…"
        case .firmwareUpgrade: "正在更新固件…"
        case .installed: "已安装"
        case .updateFailed: "更新失败：{reason}"
        case .updateInterrupted: "更新已中断"
        case .updaterStopped: "更新服务已停止，正在等待…"
        case .updateStep: "第 {step} 步，共 {steps} 步"
        }
    }
}
