<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="cs_CZ">
<context>
    <name>describeReply</name>
    <message>
        <source>no response</source>
        <translation>žádná odpověď</translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation>HTTP %1</translation>
    </message>
    <message>
        <source>HTTP %1: %2</source>
        <translation>HTTP %1: %2</translation>
    </message>
    <message>
        <source>HTTP %1 %2: %3</source>
        <translation>HTTP %1 %2: %3</translation>
    </message>
</context>
<context>
    <name>onceorder::core::BundledServer</name>
    <message>
        <source>cannot start %1: %2</source>
        <translation>nelze spustit %1: %2</translation>
    </message>
    <message>
        <source>the server exited before it was ready:
%1</source>
        <translation>server skončil dřív, než byl připraven:
%1</translation>
    </message>
    <message>
        <source>unexpected first line from the server: %1</source>
        <translation>nečekaný první řádek od serveru: %1</translation>
    </message>
    <message>
        <source>the server died 10 times within a minute; it is not restarted again</source>
        <translation>server za minutu spadl desetkrát; znovu se už nespouští</translation>
    </message>
</context>
<context>
    <name>onceorder::core::ClientSession</name>
    <message>
        <source>the network conditioner cannot listen on loopback</source>
        <translation>síťový simulátor nemůže naslouchat na loopbacku</translation>
    </message>
</context>
<context>
    <name>onceorder::core::DebugControls</name>
    <message>
        <source>Disarm the server&apos;s fault</source>
        <translation>Zrušit poruchu serveru</translation>
    </message>
    <message>
        <source>Arm %1 × %2</source>
        <translation>Nastavit %1 × %2</translation>
    </message>
    <message>
        <source>Turn %1 on</source>
        <translation>Zapnout %1</translation>
    </message>
    <message>
        <source>Turn %1 off</source>
        <translation>Vypnout %1</translation>
    </message>
    <message>
        <source>Reset the server</source>
        <translation>Resetovat server</translation>
    </message>
    <message>
        <source>Kill the server</source>
        <translation>Zabít server</translation>
    </message>
    <message>
        <source>the server is external; only the bundled one can be killed</source>
        <translation>server je externí; zabít lze jen přibalený server</translation>
    </message>
    <message>
        <source>Run the completer</source>
        <translation>Spustit dokončovač</translation>
    </message>
    <message numerus="yes">
        <source>the completer finished %n abandoned checkout(s)</source>
        <translation>
            <numerusform>dokončovač dokončil %n opuštěný nákup</numerusform>
            <numerusform>dokončovač dokončil %n opuštěné nákupy</numerusform>
            <numerusform>dokončovač dokončil %n opuštěných nákupů</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>onceorder::core::HttpExchange</name>
    <message>
        <source>no data for %1 ms (transfer timeout)</source>
        <translation>žádná data po %1 ms (vypršel časový limit přenosu)</translation>
    </message>
    <message>
        <source>aborted</source>
        <translation>přerušeno</translation>
    </message>
    <message>
        <source>the connection was closed before any answer</source>
        <translation>spojení bylo zavřeno dřív, než přišla jakákoli odpověď</translation>
    </message>
    <message>
        <source>the connection was closed in the middle of the answer</source>
        <translation>spojení bylo zavřeno uprostřed odpovědi</translation>
    </message>
</context>
<context>
    <name>onceorder::core::NetworkConditioner</name>
    <message>
        <source>refused %1: offline</source>
        <translation>odmítnuto %1: offline</translation>
    </message>
    <message>
        <source>dropped the request %1 before it reached the server</source>
        <translation>požadavek %1 zahozen dřív, než dorazil na server</translation>
    </message>
    <message>
        <source>blackholed %1: no answer will come</source>
        <translation>%1 pohlcen černou dírou: odpověď nepřijde</translation>
    </message>
    <message>
        <source>delayed %1 by %2 ms each way</source>
        <translation>%1 zpožděn o %2 ms v každém směru</translation>
    </message>
    <message>
        <source>forwarded %1</source>
        <translation>%1 předán</translation>
    </message>
    <message>
        <source>flaky: dropped the response to %1</source>
        <translation>nespolehlivá síť: odpověď na %1 zahozena</translation>
    </message>
    <message>
        <source>dropped the response to %1 (the server has processed it)</source>
        <translation>odpověď na %1 zahozena (server ho už zpracoval)</translation>
    </message>
    <message>
        <source>the server closed the connection without answering %1</source>
        <translation>server zavřel spojení, aniž odpověděl na %1</translation>
    </message>
    <message>
        <source>could not reach the server at %1 for %2: %3</source>
        <translation>server na %1 nebyl pro %2 dostupný: %3</translation>
    </message>
    <message numerus="yes">
        <source>offline: cut %n open connection(s)</source>
        <translation>
            <numerusform>offline: přerušeno %n otevřené spojení</numerusform>
            <numerusform>offline: přerušena %n otevřená spojení</numerusform>
            <numerusform>offline: přerušeno %n otevřených spojení</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>onceorder::core::ScenarioContext</name>
    <message>
        <source>cannot create a temporary folder: %1</source>
        <translation>nelze vytvořit dočasnou složku: %1</translation>
    </message>
    <message>
        <source>the network conditioner cannot listen on loopback</source>
        <translation>síťový simulátor nemůže naslouchat na loopbacku</translation>
    </message>
    <message>
        <source>GET /_debug/state answered %1</source>
        <translation>GET /_debug/state odpověděl %1</translation>
    </message>
    <message>
        <source>POST /_debug/%1 answered %2</source>
        <translation>POST /_debug/%1 odpověděl %2</translation>
    </message>
    <message>
        <source>unexpected first line from the extra server: %1</source>
        <translation>nečekaný první řádek od dalšího serveru: %1</translation>
    </message>
    <message>
        <source>cannot start %1: %2</source>
        <translation>nelze spustit %1: %2</translation>
    </message>
    <message>
        <source>no response: %1</source>
        <translation>žádná odpověď: %1</translation>
    </message>
    <message>
        <source>connection closed</source>
        <translation>spojení zavřeno</translation>
    </message>
    <message>
        <source> order %1</source>
        <translation> objednávka %1</translation>
    </message>
    <message>
        <source> (replayed)</source>
        <translation> (zopakováno)</translation>
    </message>
</context>
<context>
    <name>onceorder::core::ScenarioRunner</name>
    <message>
        <source>timed out after %1 ms in step %2 of %3</source>
        <translation>vypršel čas po %1 ms v kroku %2 z %3</translation>
    </message>
</context>
<context>
    <name>onceorder::core::ServerMonitor</name>
    <message>
        <source>the server&apos;s answer is not a debug state</source>
        <translation>odpověď serveru není ladicí stav</translation>
    </message>
</context>
<context>
    <name>onceorder::core::SubmissionEngine</name>
    <message>
        <source>interrupted: the client stopped before the answer arrived</source>
        <translation>přerušeno: klient skončil dřív, než dorazila odpověď</translation>
    </message>
    <message>
        <source>abandoned by the user; the order may exist on the server (reconcile to know)</source>
        <translation>opuštěno uživatelem; objednávka na serveru může existovat (ověřte ji)</translation>
    </message>
    <message>
        <source>reconciled: the server has order %1 for this cart</source>
        <translation>ověřeno: server má pro tento košík objednávku %1</translation>
    </message>
    <message>
        <source>reconciled: the server has no order for this cart; nothing was placed</source>
        <translation>ověřeno: server pro tento košík žádnou objednávku nemá; nic nebylo objednáno</translation>
    </message>
    <message>
        <source>reconciled: the server has order %1, its payment not finished yet; the server completes it, reconcile again in a few seconds</source>
        <translation>ověřeno: server má objednávku %1, její platba ještě není dokončená; server ji dokončí, ověřte znovu za pár sekund</translation>
    </message>
    <message>
        <source>reconciled: the server has order %1, cancelled because the payment failed</source>
        <translation>ověřeno: server má objednávku %1, zrušenou, protože platba selhala</translation>
    </message>
</context>
<context>
    <name>onceorder::ui::DebugPanel</name>
    <message>
        <source>Debug panel: break it on purpose</source>
        <translation>Ladicí panel: rozbijte to schválně</translation>
    </message>
    <message>
        <source>Done: %1</source>
        <translation>Hotovo: %1</translation>
    </message>
    <message>
        <source> — the server needs --debug-endpoints</source>
        <translation> — server potřebuje --debug-endpoints</translation>
    </message>
    <message>
        <source>%1 failed: %2%3</source>
        <translation>%1 selhalo: %2%3</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>Server</translation>
    </message>
    <message>
        <source>This client uses an external server: these controls work only if it was started with --debug-endpoints.</source>
        <translation>Tento klient používá externí server: tyto ovládací prvky fungují, jen když byl spuštěn s --debug-endpoints.</translation>
    </message>
    <message>
        <source>How many of the next order requests the fault hits</source>
        <translation>Kolik následujících požadavků na objednávku porucha zasáhne</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Requests:</source>
        <translation>Požadavků:</translation>
    </message>
    <message>
        <source>Delay:</source>
        <translation>Zpoždění:</translation>
    </message>
    <message>
        <source>Retry-After:</source>
        <translation>Retry-After:</translation>
    </message>
    <message>
        <source>Fail before commit</source>
        <translation>Chyba před commitem</translation>
    </message>
    <message>
        <source>The transaction rolls back and the server answers 503: nothing is stored, the retry places it.</source>
        <translation>Transakce se vrátí a server odpoví 503: nic se neuloží, opakovaný pokus objednávku vytvoří.</translation>
    </message>
    <message>
        <source>Crash before commit</source>
        <translation>Pád před commitem</translation>
    </message>
    <message>
        <source>The server dies mid-transaction: no order exists; it restarts and the retry places it.</source>
        <translation>Server spadne uprostřed transakce: objednávka nevznikne; server se restartuje a opakovaný pokus ji vytvoří.</translation>
    </message>
    <message>
        <source>Crash after commit</source>
        <translation>Pád po commitu</translation>
    </message>
    <message>
        <source>The order is committed, the answer never sent: the retry gets the stored answer, replayed.</source>
        <translation>Objednávka je uložena, odpověď se neodešle: opakovaný pokus dostane uloženou odpověď znovu.</translation>
    </message>
    <message>
        <source>Slow transaction</source>
        <translation>Pomalá transakce</translation>
    </message>
    <message>
        <source>The transaction holds the writer lock for the delay: a retry meanwhile waits for it, then gets the replay.</source>
        <translation>Transakce drží zámek zápisu po dobu zpoždění: opakovaný pokus mezitím počká a pak dostane uloženou odpověď.</translation>
    </message>
    <message>
        <source>Unavailable (503)</source>
        <translation>Nedostupný (503)</translation>
    </message>
    <message>
        <source>503 with Retry-After: the client waits as long as the server asks, then retries.</source>
        <translation>503 s Retry-After: klient počká, jak dlouho server žádá, a pak to zkusí znovu.</translation>
    </message>
    <message>
        <source>Disarm</source>
        <translation>Zrušit</translation>
    </message>
    <message>
        <source>Armed: nothing</source>
        <translation>Nastaveno: nic</translation>
    </message>
    <message>
        <source>&lt;b&gt;Teaching modes&lt;/b&gt; — the article&apos;s mistakes, made on purpose:</source>
        <translation>&lt;b&gt;Výukové režimy&lt;/b&gt; — chyby z článku, udělané schválně:</translation>
    </message>
    <message>
        <source>Check, then insert</source>
        <translation>Nejdřív ověřit, pak vložit</translation>
    </message>
    <message>
        <source>Looks the key up, then inserts it: two simultaneous retries both pass and order twice.</source>
        <translation>Klíč nejdřív vyhledá, pak vloží: dva souběžné pokusy projdou oba a objednají dvakrát.</translation>
    </message>
    <message>
        <source>Keys shared by all clients</source>
        <translation>Klíče sdílené všemi klienty</translation>
    </message>
    <message>
        <source>Client B sending A&apos;s key gets A&apos;s stored answer: another client&apos;s data leaks.</source>
        <translation>Klient B s klíčem klienta A dostane uloženou odpověď A: data jiného klienta uniknou.</translation>
    </message>
    <message>
        <source>Store transient errors</source>
        <translation>Ukládat přechodné chyby</translation>
    </message>
    <message>
        <source>A temporary failure is stored under the key: every retry replays the failure forever.</source>
        <translation>Dočasná chyba se uloží pod klíčem: každý další pokus ji navždy jen zopakuje.</translation>
    </message>
    <message>
        <source>Business key off</source>
        <translation>Bez obchodního klíče</translation>
    </message>
    <message>
        <source>No one-order-per-cart rule: with a new key per click, duplicates appear in Orders.</source>
        <translation>Neplatí „jeden košík, jedna objednávka“: s novým klíčem pro každé kliknutí se v Objednávkách objeví duplicity.</translation>
    </message>
    <message>
        <source>Reset the server</source>
        <translation>Resetovat server</translation>
    </message>
    <message>
        <source>Deletes orders and keys, restores stock, clears faults: a clean slate.</source>
        <translation>Smaže objednávky a klíče, obnoví zásoby, zruší poruchy: čistý stůl.</translation>
    </message>
    <message>
        <source>Kill the server</source>
        <translation>Zabít server</translation>
    </message>
    <message>
        <source>kill -9 the bundled server: requests fail until it restarts by itself.</source>
        <translation>kill -9 na přibalený server: požadavky selhávají, dokud se sám nerestartuje.</translation>
    </message>
    <message>
        <source>Only the bundled server can be killed from here.</source>
        <translation>Odtud lze zabít jen přibalený server.</translation>
    </message>
    <message>
        <source>Network (between this client and the server)</source>
        <translation>Síť (mezi tímto klientem a serverem)</translation>
    </message>
    <message>
        <source>Pass</source>
        <translation>Propouštět</translation>
    </message>
    <message>
        <source>Everything goes through untouched.</source>
        <translation>Vše projde beze změny.</translation>
    </message>
    <message>
        <source>Offline</source>
        <translation>Offline</translation>
    </message>
    <message>
        <source>Connections are refused: the request is surely not sent, so retrying is safe.</source>
        <translation>Spojení jsou odmítnuta: požadavek jistě nebyl odeslán, opakovat je tedy bezpečné.</translation>
    </message>
    <message>
        <source>Drop the request</source>
        <translation>Zahodit požadavek</translation>
    </message>
    <message>
        <source>The request is lost on the way: the server never sees it; the retry places the order.</source>
        <translation>Požadavek se cestou ztratí: server ho nikdy nevidí; opakovaný pokus objednávku vytvoří.</translation>
    </message>
    <message>
        <source>Drop the response</source>
        <translation>Zahodit odpověď</translation>
    </message>
    <message>
        <source>The order is placed but the answer is lost: the retry with the same key is replayed, not doubled.</source>
        <translation>Objednávka vznikne, ale odpověď se ztratí: pokus se stejným klíčem dostane uloženou odpověď, nic se nezdvojí.</translation>
    </message>
    <message>
        <source>Delay</source>
        <translation>Zpoždění</translation>
    </message>
    <message>
        <source>Every exchange waits for the delay: slow networks make timeouts and overlapping retries.</source>
        <translation>Každá výměna čeká po dobu zpoždění: pomalá síť způsobuje vypršení časů a překrývající se pokusy.</translation>
    </message>
    <message>
        <source>Black hole</source>
        <translation>Černá díra</translation>
    </message>
    <message>
        <source>Nothing comes back and nothing closes: only the client&apos;s timeout ends the attempt.</source>
        <translation>Nic se nevrátí a nic se nezavře: pokus ukončí jen časový limit klienta.</translation>
    </message>
    <message>
        <source>Flaky</source>
        <translation>Nespolehlivá</translation>
    </message>
    <message>
        <source>Each exchange fails with the probability below: retries with backoff get through.</source>
        <translation>Každá výměna selže s pravděpodobností níže: opakování s odstupem nakonec projdou.</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source>Mode:</source>
        <translation>Režim:</translation>
    </message>
    <message>
        <source>Failure probability:</source>
        <translation>Pravděpodobnost selhání:</translation>
    </message>
    <message>
        <source>Client (this window)</source>
        <translation>Klient (toto okno)</translation>
    </message>
    <message>
        <source>Crash the app now</source>
        <translation>Shodit aplikaci hned</translation>
    </message>
    <message>
        <source>The client dies at once, like a power cut: start it again and a pending order resumes with its key.</source>
        <translation>Klient okamžitě skončí jako při výpadku proudu: po novém spuštění nevyřízená objednávka pokračuje se svým klíčem.</translation>
    </message>
    <message>
        <source>Crash after the next send</source>
        <translation>Spadnout po dalším odeslání</translation>
    </message>
    <message>
        <source>The request reaches the server, the client dies before the answer: the next start resumes and is replayed.</source>
        <translation>Požadavek dorazí na server, klient spadne před odpovědí: další spuštění pokračuje a dostane uloženou odpověď.</translation>
    </message>
    <message>
        <source>One key per cart (correct)</source>
        <translation>Jeden klíč na košík (správně)</translation>
    </message>
    <message>
        <source>A new key per click</source>
        <translation>Nový klíč při každém kliknutí</translation>
    </message>
    <message>
        <source>No key</source>
        <translation>Bez klíče</translation>
    </message>
    <message>
        <source>Key strategy:</source>
        <translation>Strategie klíčů:</translation>
    </message>
    <message>
        <source>Every retry and every click re-sends the cart&apos;s one key: the server places it once.</source>
        <translation>Každý pokus i kliknutí posílá jediný klíč košíku: server objedná jen jednou.</translation>
    </message>
    <message>
        <source>Each click is a new request to the server: a second click after a lost answer orders twice.</source>
        <translation>Každé kliknutí je pro server nový požadavek: druhé kliknutí po ztracené odpovědi objedná dvakrát.</translation>
    </message>
    <message>
        <source>Without a key the server cannot tell a retry from a new order.</source>
        <translation>Bez klíče server nerozezná opakovaný pokus od nové objednávky.</translation>
    </message>
    <message numerus="yes">
        <source>Armed: %1 for the next %n request(s)</source>
        <translation>
            <numerusform>Nastaveno: %1 pro další %n požadavek</numerusform>
            <numerusform>Nastaveno: %1 pro další %n požadavky</numerusform>
            <numerusform>Nastaveno: %1 pro dalších %n požadavků</numerusform>
        </translation>
    </message>
    <message>
        <source>The network conditioner is not part of this build yet: these controls do not change anything.</source>
        <translation>Síťový simulátor zatím není součástí tohoto sestavení: tyto ovládací prvky nic nemění.</translation>
    </message>
    <message>
        <source>Clears every armed fault, the gateway&apos;s too.</source>
        <translation>Zruší všechny nastavené poruchy, i ty u platební brány.</translation>
    </message>
    <message>
        <source>Payment gateway (orders paid now by card)</source>
        <translation>Platební brána (objednávky placené hned kartou)</translation>
    </message>
    <message>
        <source>POST /checkout runs in phases around the gateway call. These act on the next charges (Requests and Delay above).</source>
        <translation>POST /checkout probíhá ve fázích kolem volání platební brány. Tyto poruchy zasáhnou další platby (Požadavků a Zpoždění viz výše).</translation>
    </message>
    <message>
        <source>Decline the card</source>
        <translation>Zamítnout kartu</translation>
    </message>
    <message>
        <source>A definitive answer: the order is cancelled, 402 is stored, and every retry gets it replayed.</source>
        <translation>Definitivní odpověď: objednávka se zruší, uloží se 402 a každý opakovaný pokus dostane tuto uloženou odpověď.</translation>
    </message>
    <message>
        <source>Lose the gateway&apos;s answer</source>
        <translation>Ztratit odpověď brány</translation>
    </message>
    <message>
        <source>The card is charged, the answer lost: the retry sends the gateway the same key and is not charged again.</source>
        <translation>Platba se z karty strhne, odpověď se ztratí: opakovaný pokus pošle bráně stejný klíč a podruhé se nic nestrhne.</translation>
    </message>
    <message>
        <source>Gateway down</source>
        <translation>Výpadek brány</translation>
    </message>
    <message>
        <source>Fails before charging: 503, the recovery point stays, and the retry goes on from it.</source>
        <translation>Selže před stržením platby: 503, bod obnovy zůstane a opakovaný pokus od něj pokračuje.</translation>
    </message>
    <message>
        <source>Slow gateway</source>
        <translation>Pomalá brána</translation>
    </message>
    <message>
        <source>The charge takes the delay: a second click meanwhile finds the row locked and gets 409.</source>
        <translation>Platba trvá po dobu zpoždění: druhé kliknutí mezitím najde řádek zamčený a dostane 409.</translation>
    </message>
    <message>
        <source>Webhook sent twice</source>
        <translation>Webhook dvakrát</translation>
    </message>
    <message>
        <source>The same event id arrives twice: it is stored once, and the repeat changes nothing.</source>
        <translation>Stejné ID události dorazí dvakrát: uloží se jednou a opakování nic nezmění.</translation>
    </message>
    <message>
        <source>Twin webhooks</source>
        <translation>Dvojčata webhooků</translation>
    </message>
    <message>
        <source>Two event ids for one charge: the conditional status change lets only one of them act.</source>
        <translation>Dvě ID událostí pro jednu platbu: podmíněná změna stavu nechá zapůsobit jen jednu z nich.</translation>
    </message>
    <message>
        <source>after the key row (started)</source>
        <translation>po řádku klíče (started)</translation>
    </message>
    <message>
        <source>after the order (order_created)</source>
        <translation>po objednávce (order_created)</translation>
    </message>
    <message>
        <source>after the gateway charged</source>
        <translation>po stržení platby v bráně</translation>
    </message>
    <message>
        <source>after the payment (payment_charged)</source>
        <translation>po zápisu platby (payment_charged)</translation>
    </message>
    <message>
        <source>after the stored answer (finished)</source>
        <translation>po uložení odpovědi (finished)</translation>
    </message>
    <message>
        <source>Arm</source>
        <translation>Nastavit</translation>
    </message>
    <message>
        <source>Crash the server</source>
        <translation>Shodit server</translation>
    </message>
    <message>
        <source>It restarts; the retry or the completer resumes from the recovery point: one order, one charge.</source>
        <translation>Server se restartuje; opakovaný pokus nebo dokončovač pokračuje od bodu obnovy: jedna objednávka, jedna platba.</translation>
    </message>
    <message>
        <source>Run the completer</source>
        <translation>Spustit dokončovač</translation>
    </message>
    <message>
        <source>Finishes checkouts nobody works on any more, as the server does by itself every 5 s.</source>
        <translation>Dokončí nákupy, na kterých už nikdo nepracuje, jako to server sám dělá každých 5 s.</translation>
    </message>
    <message numerus="yes">
        <source>%1 for the next %n checkout(s)</source>
        <translation>
            <numerusform>%1 pro další %n nákup</numerusform>
            <numerusform>%1 pro další %n nákupy</numerusform>
            <numerusform>%1 pro dalších %n nákupů</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 for the next %n charge(s)</source>
        <translation>
            <numerusform>%1 pro další %n platbu</numerusform>
            <numerusform>%1 pro další %n platby</numerusform>
            <numerusform>%1 pro dalších %n plateb</numerusform>
        </translation>
    </message>
    <message>
        <source>Armed: %1</source>
        <translation>Nastaveno: %1</translation>
    </message>
    <message>
        <source>Lose the webhook&apos;s 200</source>
        <translation>Ztratit odpověď 200 na webhook</translation>
    </message>
    <message>
        <source>The webhook is applied but the gateway never hears so: it delivers it again a few seconds later, and the repeat changes nothing.</source>
        <translation>Webhook se zpracuje, ale brána se o tom nedozví: za pár sekund ho doručí znovu a opakování nic nezmění.</translation>
    </message>
</context>
<context>
    <name>onceorder::ui::MainWindow</name>
    <message>
        <source>Add to cart</source>
        <translation>Přidat do košíku</translation>
    </message>
    <message>
        <source>Product</source>
        <translation>Produkt</translation>
    </message>
    <message>
        <source>In stock</source>
        <translation>Skladem</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>Množství</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Odebrat</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>Objednat</translation>
    </message>
    <message>
        <source>Items</source>
        <translation>Položky</translation>
    </message>
    <message>
        <source>Placed at</source>
        <translation>Objednáno</translation>
    </message>
    <message>
        <source>Starting the server…</source>
        <translation>Spouštím server…</translation>
    </message>
    <message>
        <source>OnceOrder — client %1</source>
        <translation>OnceOrder — klient %1</translation>
    </message>
    <message>
        <source>Current submission: every attempt, one key</source>
        <translation>Aktuální odeslání: každý pokus, jeden klíč</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Zobrazit</translation>
    </message>
    <message>
        <source>● Server failed: %1</source>
        <translation>● Server selhal: %1</translation>
    </message>
    <message>
        <source>Client %1</source>
        <translation>Klient %1</translation>
    </message>
    <message>
        <source>The server takes the client from the API key (%1), never from the order.</source>
        <translation>Server zjistí klienta z API klíče (%1), nikdy z objednávky.</translation>
    </message>
    <message>
        <source>Places every order exactly once, whatever the network does.</source>
        <translation>Každou objednávku vytvoří právě jednou, ať síť dělá cokoli.</translation>
    </message>
    <message>
        <source>Double-click a product to add it to the cart</source>
        <translation>Dvojklikem přidáte produkt do košíku</translation>
    </message>
    <message>
        <source>Catalogue</source>
        <translation>Katalog</translation>
    </message>
    <message>
        <source>Send the cart with its Idempotency-Key; clicking again re-sends the same key</source>
        <translation>Odešle košík s jeho Idempotency-Key; další kliknutí pošle znovu tentýž klíč</translation>
    </message>
    <message>
        <source>Cart</source>
        <translation>Košík</translation>
    </message>
    <message>
        <source>My orders (on the server)</source>
        <translation>Moje objednávky (na serveru)</translation>
    </message>
    <message>
        <source>● Bundled server up</source>
        <translation>● Přibalený server běží</translation>
    </message>
    <message>
        <source>● Server: external</source>
        <translation>● Server: externí</translation>
    </message>
    <message>
        <source>● Bundled server down — restarting…</source>
        <translation>● Přibalený server neběží — restartuje se…</translation>
    </message>
    <message>
        <source>sold out</source>
        <translation>vyprodáno</translation>
    </message>
    <message>
        <source>Sending the order… (attempt %1)</source>
        <translation>Odesílám objednávku… (pokus %1)</translation>
    </message>
    <message>
        <source>Order %1 placed (replayed by the server).</source>
        <translation>Objednávka %1 vytvořena (server zopakoval uloženou odpověď).</translation>
    </message>
    <message>
        <source>Order %1 placed.</source>
        <translation>Objednávka %1 vytvořena.</translation>
    </message>
    <message>
        <source>Rejected (HTTP %1): %2</source>
        <translation>Odmítnuto (HTTP %1): %2</translation>
    </message>
    <message>
        <source>Failed (HTTP %1): %2</source>
        <translation>Selhalo (HTTP %1): %2</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Selhalo: %1</translation>
    </message>
    <message>
        <source>Abandoned: the order may still exist on the server.</source>
        <translation>Opuštěno: objednávka na serveru přesto může existovat.</translation>
    </message>
    <message>
        <source>Pending submissions: %1</source>
        <translation>Nevyřízená odeslání: %1</translation>
    </message>
    <message>
        <source>Network: %1</source>
        <translation>Síť: %1</translation>
    </message>
    <message>
        <source>Attempt %1 did not get through; retrying with the same key…</source>
        <translation>Pokus %1 neprošel; zkouším znovu se stejným klíčem…</translation>
    </message>
    <message>
        <source>Order</source>
        <comment>column: the order number</comment>
        <translation>Číslo</translation>
    </message>
    <message>
        <source>&amp;Scenarios</source>
        <translation>&amp;Scénáře</translation>
    </message>
    <message>
        <source>placed</source>
        <translation>vytvořena</translation>
    </message>
    <message>
        <source>paid</source>
        <translation>zaplacena</translation>
    </message>
    <message>
        <source>awaiting payment</source>
        <translation>čeká na platbu</translation>
    </message>
    <message>
        <source>payment failed</source>
        <translation>platba selhala</translation>
    </message>
    <message>
        <source>Pay now by card</source>
        <translation>Zaplatit hned kartou</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Stav</translation>
    </message>
    <message>
        <source>Order and pay in one request (POST /checkout): the server calls a payment gateway in the middle, in phases it can resume, so a retry never charges twice</source>
        <translation>Objednat a zaplatit jedním požadavkem (POST /checkout): server uprostřed volá platební bránu, ve fázích, od kterých umí pokračovat, takže opakovaný pokus nikdy nestrhne platbu dvakrát</translation>
    </message>
    <message>
        <source>Order and pay</source>
        <translation>Objednat a zaplatit</translation>
    </message>
    <message>
        <source>Order %1 placed and paid (replayed by the server).</source>
        <translation>Objednávka %1 vytvořena a zaplacena (server zopakoval uloženou odpověď).</translation>
    </message>
    <message>
        <source>Order %1 placed and paid.</source>
        <translation>Objednávka %1 vytvořena a zaplacena.</translation>
    </message>
</context>
<context>
    <name>onceorder::ui::ScenarioDialog</name>
    <message>
        <source>Play again</source>
        <translation>Přehrát znovu</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exportovat…</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Krok</translation>
    </message>
    <message>
        <source>Response</source>
        <translation>Odpověď</translation>
    </message>
    <message>
        <source>Orders</source>
        <translation>Objednávky</translation>
    </message>
    <message>
        <source>Expected</source>
        <translation>Očekáváno</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>Verdikt</translation>
    </message>
    <message>
        <source>Playing on a fresh server: step %1 of %2…</source>
        <translation>Přehrávám na čistém serveru: krok %1 z %2…</translation>
    </message>
    <message>
        <source>Starting a fresh server…</source>
        <translation>Spouštím čistý server…</translation>
    </message>
    <message>
        <source>PASS</source>
        <translation>PROŠLO</translation>
    </message>
    <message>
        <source>FAIL</source>
        <translation>SELHALO</translation>
    </message>
    <message>
        <source>PASS in %1 s</source>
        <translation>PROŠLO za %1 s</translation>
    </message>
    <message>
        <source>FAIL in %1 s</source>
        <translation>SELHALO za %1 s</translation>
    </message>
    <message>
        <source>Could not finish: %1</source>
        <translation>Nepodařilo se dokončit: %1</translation>
    </message>
    <message>
        <source>Export the verdict table to</source>
        <translation>Exportovat tabulku verdiktů do</translation>
    </message>
    <message>
        <source>The table could not be written to %1.</source>
        <translation>Tabulku se nepodařilo zapsat do %1.</translation>
    </message>
</context>
<context>
    <name>onceorder::ui::ServerTableModel</name>
    <message>
        <source>completed</source>
        <translation>dokončeno</translation>
    </message>
    <message>
        <source>in progress</source>
        <translation>zpracovává se</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(žádný)</translation>
    </message>
    <message numerus="yes">
        <source>Duplicate: this cart was ordered %n times</source>
        <translation>
            <numerusform>Duplicita: tento košík byl objednán %nkrát</numerusform>
            <numerusform>Duplicita: tento košík byl objednán %nkrát</numerusform>
            <numerusform>Duplicita: tento košík byl objednán %nkrát</numerusform>
        </translation>
    </message>
    <message>
        <source>Client</source>
        <translation>Klient</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Klíč</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Stav</translation>
    </message>
    <message>
        <source>Fingerprint</source>
        <translation>Otisk</translation>
    </message>
    <message>
        <source>Stored code</source>
        <translation>Uložený kód</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>Objednávka</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Platnost do</translation>
    </message>
    <message>
        <source>Items</source>
        <translation>Položky</translation>
    </message>
    <message>
        <source>Cart</source>
        <translation>Košík</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Vytvořeno</translation>
    </message>
    <message>
        <source>Product</source>
        <translation>Produkt</translation>
    </message>
    <message>
        <source>Stock</source>
        <translation>Zásoba</translation>
    </message>
    <message>
        <source>locked</source>
        <translation>zamčeno</translation>
    </message>
    <message>
        <source>The gateway&apos;s key is derived from this row id</source>
        <translation>Klíč pro platební bránu se odvozuje z ID tohoto řádku</translation>
    </message>
    <message>
        <source>The last finished phase: a retry or the completer resumes after it</source>
        <translation>Poslední dokončená fáze: opakovaný pokus nebo dokončovač pokračuje po ní</translation>
    </message>
    <message>
        <source>charged</source>
        <translation>strženo</translation>
    </message>
    <message>
        <source>declined</source>
        <translation>zamítnuto</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>Řádek</translation>
    </message>
    <message>
        <source>Recovery point</source>
        <translation>Bod obnovy</translation>
    </message>
    <message>
        <source>Charge</source>
        <translation>Platba</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>Zámek</translation>
    </message>
    <message>
        <source>Our key at the gateway</source>
        <translation>Náš klíč v bráně</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Částka</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Způsob</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Výsledek</translation>
    </message>
    <message>
        <source>Recorded by</source>
        <translation>Zapsal</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Událost</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Effect</source>
        <translation>Účinek</translation>
    </message>
</context>
<context>
    <name>onceorder::ui::ServerTablesDock</name>
    <message>
        <source>Server database (live)</source>
        <translation>Databáze serveru (živě)</translation>
    </message>
    <message>
        <source>Waiting for the server…</source>
        <translation>Čekám na server…</translation>
    </message>
    <message>
        <source>Idempotency keys</source>
        <translation>Idempotenční klíče</translation>
    </message>
    <message>
        <source>One row per (client, key): taken first, completed with the stored answer.</source>
        <translation>Jeden řádek na (klienta, klíč): zabrán jako první, dokončen s uloženou odpovědí.</translation>
    </message>
    <message>
        <source>Orders</source>
        <translation>Objednávky</translation>
    </message>
    <message>
        <source>What was really ordered. Red rows: one cart ordered twice.</source>
        <translation>Co bylo opravdu objednáno. Červené řádky: jeden košík objednaný dvakrát.</translation>
    </message>
    <message>
        <source>Stock</source>
        <translation>Zásoby</translation>
    </message>
    <message>
        <source>Decremented in the order&apos;s transaction.</source>
        <translation>Snižuje se v transakci objednávky.</translation>
    </message>
    <message numerus="yes">
        <source>Live: %n order(s), %1 key(s); updated %2</source>
        <translation>
            <numerusform>Živě: %n objednávka, klíčů: %1; změna v %2</numerusform>
            <numerusform>Živě: %n objednávky, klíčů: %1; změna v %2</numerusform>
            <numerusform>Živě: %n objednávek, klíčů: %1; změna v %2</numerusform>
        </translation>
    </message>
    <message>
        <source>The server does not show its tables (start it with --debug-endpoints): %1</source>
        <translation>Server své tabulky neukazuje (spusťte ho s --debug-endpoints): %1</translation>
    </message>
    <message>
        <source>Cannot read the server&apos;s tables: %1</source>
        <translation>Tabulky serveru nelze načíst: %1</translation>
    </message>
    <message>
        <source>Checkout keys</source>
        <translation>Klíče pro /checkout</translation>
    </message>
    <message>
        <source>POST /checkout in phases: each row remembers how far it got (the recovery point).</source>
        <translation>POST /checkout po fázích: každý řádek si pamatuje, kam až se dostal (bod obnovy).</translation>
    </message>
    <message>
        <source>Payment gateway</source>
        <translation>Platební brána</translation>
    </message>
    <message>
        <source>Its own books: one charge per key we send it. Amber: charged, not yet recorded by us.</source>
        <translation>Její vlastní účetnictví: jedna platba na každý klíč, který jí pošleme. Žluté řádky: strženo, u nás zatím nezapsáno.</translation>
    </message>
    <message>
        <source>Webhooks</source>
        <translation>Webhooky</translation>
    </message>
    <message>
        <source>Every event id once; a repeat or a twin changes nothing.</source>
        <translation>Každé ID události jen jednou; opakování ani dvojče nic nezmění.</translation>
    </message>
    <message>
        <source>Keys: /orders (%1)</source>
        <translation>Klíče: /orders (%1)</translation>
    </message>
    <message>
        <source>Keys: /checkout (%1)</source>
        <translation>Klíče: /checkout (%1)</translation>
    </message>
    <message>
        <source>Charges (%1)</source>
        <translation>Platby (%1)</translation>
    </message>
    <message>
        <source>Webhooks (%1)</source>
        <translation>Webhooky (%1)</translation>
    </message>
</context>
<context>
    <name>onceorder::ui::SubmissionTimelineWidget</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopírovat</translation>
    </message>
    <message>
        <source>Retry now</source>
        <translation>Zkusit hned</translation>
    </message>
    <message>
        <source>Abandon…</source>
        <translation>Vzdát…</translation>
    </message>
    <message>
        <source>no submission yet</source>
        <translation>zatím nic neodesláno</translation>
    </message>
    <message>
        <source>The Idempotency-Key: the same on every attempt of this cart</source>
        <translation>Idempotency-Key: stejný při každém pokusu s tímto košíkem</translation>
    </message>
    <message>
        <source>Copy the key, e.g. to find it in the server&apos;s tables or log</source>
        <translation>Zkopíruje klíč, třeba abyste ho našli v tabulkách nebo logu serveru</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Čas</translation>
    </message>
    <message>
        <source>Took</source>
        <translation>Trvalo</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Výsledek</translation>
    </message>
    <message>
        <source>HTTP</source>
        <translation>HTTP</translation>
    </message>
    <message>
        <source>Replayed</source>
        <translation>Zopakováno</translation>
    </message>
    <message>
        <source>Then waited</source>
        <translation>Pak čekal</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Proč</translation>
    </message>
    <message>
        <source>Send the next attempt now instead of waiting (same key, same bytes)</source>
        <translation>Pošle další pokus hned, bez čekání (stejný klíč, stejné bajty)</translation>
    </message>
    <message>
        <source>Stop retrying; the order may already exist on the server</source>
        <translation>Přestane to zkoušet; objednávka už na serveru může existovat</translation>
    </message>
    <message>
        <source>Idempotency-Key:</source>
        <translation>Idempotency-Key:</translation>
    </message>
    <message>
        <source>(no key: the &quot;no key&quot; strategy)</source>
        <translation>(bez klíče: strategie „bez klíče“)</translation>
    </message>
    <message>
        <source>Idempotency-Key of cart %1, sent to %2</source>
        <translation>Idempotency-Key košíku %1, odesláno na %2</translation>
    </message>
    <message>
        <source>Place an order to see each attempt here.</source>
        <translation>Objednejte a uvidíte tu každý pokus.</translation>
    </message>
    <message>
        <source>in flight…</source>
        <translation>na cestě…</translation>
    </message>
    <message>
        <source>placed</source>
        <translation>vytvořeno</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>odmítnuto</translation>
    </message>
    <message>
        <source>retry later</source>
        <translation>zkusit později</translation>
    </message>
    <message>
        <source>not sent</source>
        <translation>neodesláno</translation>
    </message>
    <message>
        <source>maybe sent</source>
        <translation>možná odesláno</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>Čeká</translation>
    </message>
    <message>
        <source>Order %1 (replayed)</source>
        <translation>Objednávka %1 (zopakováno)</translation>
    </message>
    <message>
        <source>Order %1 placed</source>
        <translation>Objednávka %1 vytvořena</translation>
    </message>
    <message>
        <source>Rejected (HTTP %1)</source>
        <translation>Odmítnuto (HTTP %1)</translation>
    </message>
    <message>
        <source>Gave up: outcome unknown</source>
        <translation>Vzdáno: výsledek neznámý</translation>
    </message>
    <message>
        <source>Abandoned</source>
        <translation>Opuštěno</translation>
    </message>
    <message>
        <source>%1 (+%2)</source>
        <translation>%1 (+%2)</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ano</translation>
    </message>
    <message>
        <source>Idempotent-Replayed: true — the server answered from the stored response</source>
        <translation>Idempotent-Replayed: true — server odpověděl uloženou odpovědí</translation>
    </message>
    <message>
        <source>Attempt %1 is on its way…</source>
        <translation>Pokus %1 je na cestě…</translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation>Odesílám…</translation>
    </message>
    <message numerus="yes">
        <source>%n attempt(s), one key.</source>
        <translation>
            <numerusform>%n pokus, jeden klíč.</numerusform>
            <numerusform>%n pokusy, jeden klíč.</numerusform>
            <numerusform>%n pokusů, jeden klíč.</numerusform>
        </translation>
    </message>
    <message>
        <source>Next attempt in %1</source>
        <translation>Další pokus za %1</translation>
    </message>
    <message>
        <source>Next attempt due now</source>
        <translation>Další pokus právě teď</translation>
    </message>
    <message>
        <source>Abandon this order?</source>
        <translation>Vzdát tuto objednávku?</translation>
    </message>
    <message>
        <source>The server may already have placed this order: an attempt may have arrived even though its answer did not.</source>
        <translation>Server už možná objednávku vytvořil: pokus mohl dorazit, i když jeho odpověď ne.</translation>
    </message>
    <message>
        <source>Check the server first: it looks for an order from this cart. Abandoning only stops this client from retrying.</source>
        <translation>Nejdřív ověřte server: vyhledá objednávku z tohoto košíku. Vzdáním jen tento klient přestane zkoušet znovu.</translation>
    </message>
    <message>
        <source>Check the server first</source>
        <translation>Nejdřív ověřit server</translation>
    </message>
    <message>
        <source>Abandon anyway</source>
        <translation>Přesto vzdát</translation>
    </message>
    <message>
        <source>Keep retrying</source>
        <translation>Zkoušet dál</translation>
    </message>
</context>
</TS>
